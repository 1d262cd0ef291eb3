export const HEAP_FLAGS_OFF: string;
export function modpakNodeFlags(): string[];
