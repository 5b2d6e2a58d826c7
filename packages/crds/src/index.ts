export { GROUP, VERSION } from './group.ts';
