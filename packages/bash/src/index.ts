export { BASH_DESCRIPTION } from './description.js';
export { type BashCallOptions, type BashOptions, handleBash } from './handle-bash.js';
export { type BashLimits, DEFAULT_BASH_LIMITS, resolveBashLimits } from './limits.js';
export { BashFailure, BashRequest, BashResponse, BashResult } from './schema.js';
export { bashProvider, createBashTool } from './tool.js';
