/** `@promop/controller`: the operator (to come) and the offline renderer behind `promop render`. */
export { readManifests, type Manifests, type ManifestResource } from './manifest-reader.ts';
export { renderManifests, outputFiles, formatRenderReport, type RenderResult, type RenderedPrometheus } from './render-command.ts';
