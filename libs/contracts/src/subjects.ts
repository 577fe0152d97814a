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
  intl: {
    phrasesUpload: 'intl.phrases.upload',
    phrasesQuery: 'intl.phrases.query',
    translationSubmit: 'intl.translations.submit',
    translationsQuery: 'intl.translations.query',
    vote: 'intl.translations.vote',
    approve: 'intl.translations.approve',
    reject: 'intl.translations.reject',
    bulkApprove: 'intl.translations.bulk-approve',
    bulkReject: 'intl.translations.bulk-reject',
    export: 'intl.translations.export',
    translationsUpload: 'intl.translations.upload',
    health: 'intl.health',
  },
  places: {
    regions: 'places.catalogue.regions',
    counties: 'places.catalogue.counties',
    municipalities: 'places.catalogue.municipalities',
    detail: 'places.detail',
    query: 'places.search.query',
    street: 'places.search.street',
    municipality: 'places.search.municipality',
    postal: 'places.search.postal',
    reverse: 'places.search.reverse',
    validate: 'places.validate',
    health: 'places.health',
  },
  business: {
    query: 'business.search.query',
    identifier: 'business.search.identifier',
    detail: 'business.detail',
    health: 'business.health',
  },
  utils: {
    email: 'utils.email.validate',
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
