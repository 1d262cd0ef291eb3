export const FLAGS_AFTER_START: string;
export function modpakNodeFlags(): string[];
