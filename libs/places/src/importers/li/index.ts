export { liPlaceDocs } from './li-import';
export { LI_POSTAL_CODES, LI_LOCALITIES, liMunicipalityOfPlace } from './li-places';
export type { LiMunicipality } from './li-places';
export { scanOsmAddresses } from './osm-address-scan';
export type { OsmAddressCandidate, OsmAddressScan } from './osm-address-scan';
export { readOsmPbf } from './osm-pbf/osm-pbf.reader';
export type { OsmElement, OsmNode, OsmWay, OsmRelation, OsmMember, OsmTags, OsmReadOptions } from './osm-pbf/osm-pbf.reader';
