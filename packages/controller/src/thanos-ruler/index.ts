/** The ThanosRuler's rendering, children builders and controller (bench/compat-diff compares them with upstream's). */
export {
  buildThanosRulerRuleConfigMaps, buildThanosRulerSecrets, buildThanosRulerService, buildThanosRulerStatefulSet, thanosRulerCommand,
  thanosRulerImage, thanosRulerSelectorLabels, THANOS_RULER_CONTAINER_NAME, THANOS_RULER_SERVICE_NAME, THANOS_RULER_TLS_ASSETS_DIR, type ThanosRulerCommand,
} from './thanos-ruler-children.ts';
export { renderThanosRuler, type ThanosRulerRendering } from './thanos-ruler-rendering.ts';
export { ThanosRulerController, type ThanosRulerControllerOptions } from './thanos-ruler-controller.ts';
