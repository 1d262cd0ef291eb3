import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { terminalProgress } from '../progress.js';
import { collect, oneOf, parseInteger } from '../options.js';
import { CliFailure, UsageError } from '../errors.js';
import { archiveInfo, catEntry, extractArchive, listArchive, verifyArchive } from '../../services/archive-service.js';
import { packFolder } from '../../services/pack-service.js';
import type { PackFormatId, PackOptions } from '../../formats/index.js';

/** info, list, extract, cat, verify, pack: one archive at a time, any format. */
export function registerArchiveCommands(program: Command, ctx: CliContext): void {
  program
    .command('info')
    .description('show what an archive is: format, counts, cipher, whether TA 3.1c would mount it')
    .argument('<file>')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      ctx.file = file;
      const info = await archiveInfo(file);
      if (opts.json) return ctx.printJson(info);
      for (const [key, value] of Object.entries(info)) {
        ctx.print(`${key.padEnd(12)} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
      }
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
      const entries = await listArchive(file, opts.pattern);
      if (opts.json) return ctx.printJson(entries);
      for (const e of entries) {
        if (!opts.verbose) ctx.print(e.dir ? `${e.path}/` : e.path);
        else ctx.print(`${e.dir ? 'dir' : String(e.size).padStart(10)} ${String(e.packedSize).padStart(10)} ${e.method.padEnd(7)} ${e.type ? `${e.type.padEnd(8)} ` : ''}${e.path}${e.dir ? '/' : ''}`);
      }
    });

  program
    .command('extract')
    .description('extract files (all, or those matching -p) into a folder')
    .argument('<file>')
    .requiredOption('-t, --target <dir>', 'the folder to extract into')
    .option('-p, --pattern <glob>', 'only paths matching the glob (repeatable)', collect, [])
    .option('--threads <n>', 'decoding threads (default: one per core for large extractions)', parseInteger)
    .action(async (file: string, opts: { target: string; pattern: string[]; threads?: number }) => {
      ctx.file = file;
      if (opts.threads !== undefined && opts.threads < 1) throw new UsageError('--threads takes a number from 1 up');
      const bar = terminalProgress('extract');
      try {
        const result = await extractArchive(file, opts.target, {
          globs: opts.pattern,
          // This thread always decodes; the others are worker threads.
          workers: opts.threads === undefined ? undefined : opts.threads - 1,
          onProgress: (d, t) => bar.update(d, t),
          onWarning: (m) => ctx.warn(m),
        });
        bar.done();
        const threads = (result.threads ?? 0) + 1;
        ctx.stderr.write(`extracted ${result.files} files (${result.bytes} bytes) to ${opts.target} on ${threads} thread${threads === 1 ? '' : 's'}\n`);
      } finally {
        bar.done();
      }
    });

  program
    .command('cat')
    .description("write one file's bytes to stdout")
    .argument('<file>')
    .argument('<path>')
    .action(async (file: string, path: string) => {
      ctx.file = file;
      const data = await catEntry(file, path);
      await new Promise<void>((resolve, reject) => ctx.stdout.write(data, (err) => (err ? reject(err) : resolve())));
    });

  program
    .command('verify')
    .description('decode every file and check every checksum')
    .argument('<file>')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      ctx.file = file;
      const bar = terminalProgress('verify');
      const result = await verifyArchive(file, (d, t) => bar.update(d, t));
      bar.done();
      if (opts.json) ctx.printJson(result);
      else {
        for (const w of result.warnings) ctx.print(`warning: ${w.path ? `${w.path}: ` : ''}${w.message}`);
        for (const e of result.errors) ctx.print(`error: ${e.path}: ${e.message}`);
        ctx.print(`${result.ok ? 'ok' : 'FAILED'}: ${result.files} files, ${result.bytes} bytes decoded, ${result.errors.length} errors, ${result.warnings.length} warnings`);
      }
      if (!result.ok) throw new CliFailure(file, `${result.errors.length} files failed to verify`);
    });

  program
    .command('pack')
    .description('pack a folder into an archive (written to a temporary file, then renamed into place)')
    .argument('<dir>')
    .requiredOption('--target <file>', 'the archive to write')
    .option('--format <format>', 'hpi|hpi2|pak|sin|daikatana|pangya|wad2|wad3 (default: from the extension)', oneOf<PackFormatId>(['hpi', 'hpi2', 'pak', 'sin', 'daikatana', 'pangya', 'wad2', 'wad3']))
    .option('--method <method>', 'lz77|zlib|none|lz77x', oneOf<NonNullable<PackOptions['method']>>(['lz77', 'zlib', 'none', 'lz77x']))
    .option('--key <n>', 'HPI v1 header key (0 = no cipher)', parseInteger)
    .option('--no-trailer', 'HPI v1: leave out the Cavedog trailer (TA 3.1c will not mount it)')
    .option('--cipher <cipher>', 'Pangya: xtea|xor', oneOf<'xtea' | 'xor'>(['xtea', 'xor']))
    .option('--region <region>', 'Pangya XTEA key: us|jp|th|eu|id|kr', oneOf<NonNullable<PackOptions['region']>>(['us', 'jp', 'th', 'eu', 'id', 'kr']))
    .option('--order-from <archive>', 'keep the stored order of this archive for the paths it shares')
    .option('--palette <file>', 'WAD2: the palette PNGs become miptex with (a 768-byte palette.lmp, or a PCX with a 256-colour palette)')
    .action(async (dir: string, opts: { target: string; format?: PackFormatId; method?: PackOptions['method']; key?: number; trailer: boolean; cipher?: 'xtea' | 'xor'; region?: PackOptions['region']; orderFrom?: string; palette?: string }) => {
      ctx.file = opts.target;
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
        ctx.stderr.write(`packed ${result.files} files (${result.bytes} bytes) into ${opts.target} (${result.size} bytes, ${result.format})\n`);
      } finally {
        bar.done();
      }
    });
}
