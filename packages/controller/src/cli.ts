import { GROUP } from '@promop/crds'; import * as k8s from '@kubernetes/client-node'; console.log(GROUP, typeof k8s.KubeConfig);
