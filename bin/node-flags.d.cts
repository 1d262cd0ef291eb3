export function modpakNodeFlags(): string[];
