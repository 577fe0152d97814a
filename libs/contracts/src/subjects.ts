/**
 * Message patterns. Each is a NATS subject below the configured prefix (`lookup.` by
 * default) and the key of the in-process bus; services own the top level.
 */
export const Services = {
  places: 'places',
  business: 'business',
  intl: 'intl',
  utils: 'utils',
} as const;
export type ServiceName = (typeof Services)[keyof typeof Services];

export const Subjects = {
  places: {
    regions: 'places.catalogue.regions',
    counties: 'places.catalogue.counties',
    municipalities: 'places.catalogue.municipalities',
    detail: 'places.detail',
    health: 'places.health',
  },
  business: {
    health: 'business.health',
  },
  utils: {
    translate: 'utils.translator.translate',
    ip: 'utils.ip.info',
    vies: 'utils.vies.check',
    health: 'utils.health',
  },
} as const;

/** The service that answers a subject: its first segment. */
export function serviceOf(subject: string): string {
  return subject.split('.', 1)[0];
}
