/** The failure-code table (`error_code` of every failure is one of these). */
export { NAV_ERROR_CODES, type NavErrorCode } from './errors.js';
/** The pure code_nav handler and its options. */
export { handleCodeNav, type NavOptions } from './handle-nav.js';
/** Limits of the tool and their defaults. */
export { DEFAULT_NAV_LIMITS, NAV_LIMITS, type NavLimits, resolveNavLimits } from './limits.js';
/** The warm TypeScript project cache a tool instance owns. */
export { NavCache } from './nav-cache.js';
/** Request and response schemas (zod), also usable as types. */
export {
  type NavInput,
  NavItem,
  NavRequest,
  NavResponse,
  type NavResponseFor,
  type NavSuccessByAction,
} from './schema.js';
/** Tool factory and provider. */
export { type CodeNavToolOptions, codeNavProvider, createCodeNavTool } from './tool.js';
