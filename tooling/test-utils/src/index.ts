export { type ConformanceOptions, describeToolConformance } from './conformance.js';
export { makeWorkspace, type TempWorkspace } from './workspace.js';
