export { describeToolConformance, type ConformanceOptions } from './conformance.js';
export { makeWorkspace, type TempWorkspace } from './workspace.js';
