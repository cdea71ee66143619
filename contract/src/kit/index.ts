export * from './resource.js';
export * from './workflow.js';
