import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { terminalProgress } from '../progress.js';
import { collect, oneOf, parseInteger } from '../options.js';
import { CliFailure, UsageError } from '../errors.js';
import { WarningTally } from '../warnings.js';
import type { PackFormatId, PackOptions } from '../../formats/index.js';
import { reportLines } from '../../../shared/archive-facts.js';

// The services load when a command runs, not at start (see commands/index.ts).
const archiveService = () => import('../../services/archive-service.js');
const archiveExtract = () => import('../../services/archive-extract.js');
const archiveVerify = () => import('../../services/archive-verify.js');

/** info, list, extract, cat, verify, pack: one archive at a time, any format. */
export function registerArchiveCommands(program: Command, ctx: CliContext): void {
  program
    .command('info')
    .description('show what an archive is: format, counts, cipher, whether TA 3.1c would mount it')
    .argument('<file>')
    .option('--json', 'print JSON')
    .option('-v, --verbose', 'list every warning (by default one line per kind, with a count)')
    .action(async (file: string, opts: { json?: boolean; verbose?: boolean }) => {
      ctx.file = file;
      const { archiveInfo } = await archiveService();
      const info = await archiveInfo(file);
      if (opts.json) return ctx.printJson(info);
      // A flood of one warning (kbot-io's zero checksums) is one line with a count; -v lists each.
      const tally = new WarningTally(ctx);
      if (!opts.verbose) for (const w of info.warnings ?? []) tally.add(w);
      const warnings = opts.verbose ? (info.warnings ?? []) : tally.lines();
      for (const line of reportLines({ ...info, warnings })) ctx.print(line);
    });

  program
    .command('list')
    .description('list the entries in stored order')
    .argument('<file>')
    .option('-v, --verbose', 'sizes and methods')
    .option('-p, --pattern <glob>', 'only paths matching the glob (repeatable)', collect, [])
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { verbose?: boolean; pattern: string[]; json?: boolean }) => {
      ctx.file = file;
      const { listArchive } = await archiveService();
      const entries = await listArchive(file, opts.pattern);
      if (opts.json) return ctx.printJson(entries);
      for (const e of entries) {
        if (!opts.verbose) ctx.print(e.dir ? `${e.path}/` : e.path);
        else
          ctx.print(
            `${e.dir ? 'dir' : String(e.size).padStart(10)} ${String(e.packedSize).padStart(10)} ${e.method.padEnd(7)} ${e.type ? `${e.type.padEnd(8)} ` : ''}${e.path}${e.dir ? '/' : ''}`,
          );
      }
    });

  program
    .command('extract')
    .description('extract files (all, or those matching -p) into a folder')
    .argument('<file>')
    .requiredOption('-t, --target <dir>', 'the folder to extract into')
    .option('-p, --pattern <glob>', 'only paths matching the glob (repeatable)', collect, [])
    .option('--threads <n>', 'decoding threads (default: one per core for large extractions)', parseInteger)
    .option('--keep-going', 'extract every good entry; list the ones that do not decode')
    .option('-v, --verbose', 'list every warning (by default one line per kind, with a count)')
    .action(async (file: string, opts: { target: string; pattern: string[]; threads?: number; keepGoing?: boolean; verbose?: boolean }) => {
      ctx.file = file;
      if (opts.threads !== undefined && opts.threads < 1) throw new UsageError('--threads takes a number from 1 up');
      const { extractArchive } = await archiveExtract();
      const bar = terminalProgress('extract');
      const tally = new WarningTally(ctx, opts.verbose);
      try {
        const result = await extractArchive(file, opts.target, {
          globs: opts.pattern,
          // This thread always decodes; the others are worker threads.
          workers: opts.threads === undefined ? undefined : opts.threads - 1,
          keepGoing: opts.keepGoing,
          onProgress: (d, t) => bar.update(d, t),
          onWarning: (m) => tally.add(m),
        });
        bar.done();
        tally.flush();
        const threads = (result.threads ?? 0) + 1;
        const notWritten = [
          result.refused.length > 0 ? `${result.refused.length} refused` : '',
          result.failed.length > 0 ? `${result.failed.length} failed` : '',
        ].filter(Boolean);
        ctx.stderr.write(
          `extracted ${result.files} files (${result.bytes} bytes) to ${opts.target} on ${threads} thread${threads === 1 ? '' : 's'}${notWritten.length > 0 ? `; ${notWritten.join(', ')}` : ''}\n`,
        );
        if (result.failed.length > 0) {
          const names = result.failed
            .slice(0, 3)
            .map((f) => f.path)
            .join(', ');
          throw new CliFailure(
            file,
            `${result.failed.length} file${result.failed.length === 1 ? '' : 's'} did not decode: ${names}${result.failed.length > 3 ? ` (+${result.failed.length - 3} more)` : ''}`,
          );
        }
      } finally {
        bar.done();
        tally.flush();
      }
    });

  program
    .command('cat')
    .description("write one file's bytes to stdout")
    .argument('<file>')
    .argument('<path>')
    .action(async (file: string, path: string) => {
      ctx.file = file;
      const { catEntryTo } = await archiveService();
      // Piece by piece, each written before the next is decoded: memory stays at one chunk.
      await catEntryTo(
        file,
        path,
        (data) => new Promise<void>((resolve, reject) => ctx.stdout.write(data, (err) => (err ? reject(err) : resolve()))),
      );
    });

  program
    .command('verify')
    .description('decode every file and check every checksum')
    .argument('<file>')
    .option('--json', 'print JSON')
    .option('-v, --verbose', 'list every warning (by default one line per kind, with a count)')
    .action(async (file: string, opts: { json?: boolean; verbose?: boolean }) => {
      ctx.file = file;
      const [{ verifyArchive }, { namedOnce }] = await Promise.all([archiveVerify(), archiveExtract()]);
      const bar = terminalProgress('verify');
      const result = await verifyArchive(file, (d, t) => bar.update(d, t));
      bar.done();
      if (opts.json) ctx.printJson(result);
      else {
        const lines = opts.verbose ? null : new WarningTally(ctx, false);
        for (const w of result.warnings) {
          const line = `${w.path ? `${w.path}: ` : ''}${w.message}`;
          if (lines) lines.add(line);
          else ctx.print(`warning: ${line}`);
        }
        for (const line of lines?.lines() ?? []) ctx.print(`warning: ${line}`);
        for (const e of result.errors) ctx.print(`error: ${e.path}: ${e.message}`);
        ctx.print(
          `${result.ok ? 'ok' : 'FAILED'}: ${result.files} files, ${result.bytes} bytes decoded, ${result.errors.length} errors, ${result.warnings.length} warnings`,
        );
      }
      if (!result.ok) {
        const first = result.errors[0];
        throw new CliFailure(
          file,
          `${result.errors.length} of ${result.files + result.errors.length} files failed to verify${first ? ` (first: ${namedOnce(first.path, first.message)})` : ''}`,
        );
      }
    });

  program
    .command('pack')
    .description('pack a folder into an archive (written to a temporary file, then renamed into place)')
    .argument('<dir>')
    .requiredOption('-t, --target <file>', 'the archive to write')
    .option(
      '--format <format>',
      'hpi|hpi2|pak|sin|daikatana|pangya|wad2|wad3 (default: from the extension)',
      oneOf<PackFormatId>(['hpi', 'hpi2', 'pak', 'sin', 'daikatana', 'pangya', 'wad2', 'wad3']),
    )
    .option('--method <method>', 'lz77|zlib|none|lz77x', oneOf<NonNullable<PackOptions['method']>>(['lz77', 'zlib', 'none', 'lz77x']))
    .option('--key <n>', 'HPI v1 header key (0 = no cipher)', parseInteger)
    .option('--no-trailer', 'HPI v1: leave out the Cavedog trailer (TA 3.1c will not mount it)')
    .option('--cipher <cipher>', 'Pangya: xtea|xor', oneOf<'xtea' | 'xor'>(['xtea', 'xor']))
    .option(
      '--region <region>',
      'Pangya XTEA key: us|jp|th|eu|id|kr',
      oneOf<NonNullable<PackOptions['region']>>(['us', 'jp', 'th', 'eu', 'id', 'kr']),
    )
    .option('--order-from <archive>', 'keep the stored order of this archive for the paths it shares')
    .option('--palette <file>', 'WAD2: the palette PNGs become miptex with (a 768-byte palette.lmp, or a PCX with a 256-colour palette)')
    .action(
      async (
        dir: string,
        opts: {
          target: string;
          format?: PackFormatId;
          method?: PackOptions['method'];
          key?: number;
          trailer: boolean;
          cipher?: 'xtea' | 'xor';
          region?: PackOptions['region'];
          orderFrom?: string;
          palette?: string;
        },
      ) => {
        ctx.file = opts.target;
        const [{ foreignPackOptions, packFormatFromExtension, packFormatLabel }, { packFolder }] = await Promise.all([
          import('../../formats/index.js'),
          import('../../mods/pack.js'),
        ]);
        const format = opts.format ?? packFormatFromExtension(opts.target);
        const foreign = format
          ? foreignPackOptions(format, {
              method: opts.method,
              key: opts.key,
              trailer: opts.trailer,
              cipher: opts.cipher,
              region: opts.region,
            })
          : [];
        if (format && foreign.length > 0) {
          const flags = foreign.map((o) => (o === 'trailer' ? '--no-trailer' : `--${o}`)).join(', ');
          throw new UsageError(`${flags}: not an option of ${packFormatLabel(format)} archives (${opts.target})`);
        }
        const bar = terminalProgress('pack');
        try {
          const result = await packFolder({
            dir,
            target: opts.target,
            format: opts.format,
            method: opts.method,
            key: opts.key,
            trailer: opts.trailer,
            cipher: opts.cipher,
            region: opts.region,
            orderFrom: opts.orderFrom,
            palette: opts.palette,
            onProgress: (d, t) => bar.update(d, t),
            onWarning: (m) => ctx.warn(m),
          });
          bar.done();
          ctx.stderr.write(
            `packed ${result.files} files (${result.bytes} bytes) into ${opts.target} (${result.size} bytes, ${result.format})\n`,
          );
        } finally {
          bar.done();
        }
      },
    );
}
