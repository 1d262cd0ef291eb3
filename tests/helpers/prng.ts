export { prng } from '../../shared/prng.js';
