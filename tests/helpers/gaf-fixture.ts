/** GAF fixtures from code: the demo's GAF writer (written from the format description). */
export { buildGaf, encodeRleRows, type FixtureFrame, type FixtureLayer, type FixtureSequence } from '../../electron/demo/gaf.js';
