export function peakRssKb(): number;
