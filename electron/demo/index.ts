/** Generated installs: the studio's demo (and the tests' and e2e's), and the benchmarks' full-size one. */
export { generateDemoInstall, demoArchives, demoLooseFiles, type DemoArchive } from './demo-install.js';
export { generateFullInstall, type FullInstallOptions } from './full-install.js';
export { writeHpi, packBytes, writeArchive, type DemoFile, type Tamper } from './writer.js';
export { buildGaf, demoSpriteGaf } from './gaf.js';
