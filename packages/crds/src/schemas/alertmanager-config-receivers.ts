/**
 * The receivers of an AlertmanagerConfig (monitoring.coreos.com/v1alpha1): where a team's alerts are delivered.
 * Every credential comes from a Secret in the AlertmanagerConfig's own namespace, never from a file or another
 * namespace.
 */
import { str } from './common.ts';

/** One named receiver with its notifier configurations. */
export const receiverSchema = {
  type: 'object',
  description: 'A receiver: a name and the notifiers alerts routed to it are sent through.',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, description: 'Name of the receiver, unique in this AlertmanagerConfig.' },
    webhookConfigs: {
      type: 'array',
      description: 'Webhook notifiers.',
      items: {
        type: 'object',
        description: 'A webhook notifier.',
        additionalProperties: false,
        properties: {
          url: str('URL to send POST requests to.'),
        },
      },
    },
  },
} as const;
