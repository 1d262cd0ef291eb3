export { pathMatcher } from '../../shared/globs.js';
