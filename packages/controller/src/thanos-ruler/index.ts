/** The ThanosRuler's children builders and its controller (bench/compat-diff compares the builders with upstream's). */
export {
  buildThanosRulerRuleConfigMaps, buildThanosRulerSecrets, buildThanosRulerService, buildThanosRulerStatefulSet, thanosRulerCommand,
  thanosRulerImage, thanosRulerSelectorLabels, THANOS_RULER_CONTAINER_NAME, THANOS_RULER_SERVICE_NAME, type ThanosRulerCommand,
} from './thanos-ruler-children.ts';
export { ThanosRulerController, type ThanosRulerControllerOptions } from './thanos-ruler-controller.ts';
