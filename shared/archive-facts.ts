/**
 * An archive's report in words, the same for `modpak info` and the studio's Archive screen: each
 * format's facts by name, then TA 3.1c's verdict as a sentence, the other formats the bytes fit, the
 * detection note and the warnings.
 */
import type { ArchiveReport } from './archive-info.js';
import type { MountStatus } from './vfs-types.js';

export interface Fact {
  label: string;
  value: string;
}

const hex = (n: number) => `0x${n.toString(16).toUpperCase().padStart(2, '0')}`;

/** "TA 3.1c would mount: yes — HPI v1 with the Cavedog trailer and a readable directory". */
export function taMountSentence(status: MountStatus): string {
  return `TA 3.1c would mount: ${status.ok ? 'yes' : 'no'} — ${status.reason}`;
}

/** The format as one word or two ("hpi v1", "pangya"). */
export function formatName(report: ArchiveReport): string {
  return report.format === 'hpi' ? `hpi v${report.version}` : report.format;
}

/** The format's own facts, beyond the counts every format has. */
export function formatFacts(report: ArchiveReport): Fact[] {
  switch (report.format) {
    case 'hpi':
      if (report.version === 2)
        return [
          { label: 'version', value: '2 (TA: Kingdoms)' },
          { label: 'Last78 block', value: report.last78 ? 'present' : 'absent' },
        ];
      return [
        { label: 'version', value: '1 (Total Annihilation)' },
        { label: 'key', value: report.key === 0 ? '0 (no cipher)' : hex(report.key) },
        {
          label: 'trailer',
          value: report.trailer ?? (report.bytesAfterTrailer !== null ? `followed by ${report.bytesAfterTrailer} bytes` : 'none'),
        },
      ];
    case 'pak':
    case 'sin':
      return [{ label: 'entry size', value: `${report.entrySize} bytes` }];
    case 'daikatana':
      return [
        { label: 'entry size', value: `${report.entrySize} bytes` },
        { label: 'compressed', value: `${report.compressed} entries` },
      ];
    case 'wad':
      return [
        { label: 'version', value: report.version },
        {
          label: 'lumps',
          value: Object.entries(report.lumpTypes)
            .map(([t, n]) => `${n} ${t}`)
            .join(', '),
        },
      ];
    case 'pangya': {
      const facts = [
        { label: 'cipher', value: report.cipher.toUpperCase() },
        { label: 'region', value: report.region ?? '—' },
        { label: 'table at', value: String(report.tableOffset) },
      ];
      if (report.regionCandidates?.length) facts.push({ label: 'region keys', value: report.regionCandidates.join(', ') });
      return facts;
    }
  }
}

/** Every line `modpak info` prints, in order. */
export function reportLines(report: ArchiveReport): string[] {
  const lines = [
    `format       ${report.format}`,
    `files        ${report.files}`,
    `folders      ${report.dirs}`,
    `bytes        ${report.bytes}`,
    ...formatFacts(report).map((f) => `${f.label.padEnd(12)} ${f.value}`),
  ];
  if (report.taMount) lines.push(taMountSentence(report.taMount));
  if (report.alsoMatches?.length) lines.push(`also fits    ${report.alsoMatches.join(', ')}`);
  if (report.note) lines.push(`note         ${report.note}`);
  for (const w of report.warnings ?? []) lines.push(`warning      ${w}`);
  return lines;
}
