// Writes the Slovak part of the bundled sample (libs/places/src/fixtures/sample/sk/DavkaInit-sample.xml):
// one Register adries batch (getChangesResponse) with regions, counties, municipalities, their parts,
// streets, buildings (súpisné čísla) and entrances (orientation numbers) with positions.
// Region, county and municipality names and codes are the public codelists; every street, number,
// objectId and position below is invented (streets laid out on short lines around each town centre).
// Run: node tools/sample/write-sk-sample.js
const fs = require('node:fs');
const path = require('node:path');

/** One municipality per region (plus a village without streets): [region, county, municipality, status, psc, lat, lon, streets]. */
const PLACES = [
  ['SK010', 'Bratislavský', 'SK0101', 'Bratislava I', '528595', 'Bratislava-Staré Mesto', 'CITY_DISTRICT', '81101', 48.1440, 17.1077, ['Panská', 'Laurinská', 'Štúrova']],
  ['SK021', 'Trnavský', 'SK0217', 'Trnava', '506745', 'Trnava', 'CITY', '91701', 48.3774, 17.5883, ['Hlavná', 'Štefánikova', 'Hospodárska']],
  ['SK022', 'Trenčiansky', 'SK0227', 'Trenčín', '505820', 'Trenčín', 'CITY', '91101', 48.8945, 18.0444, ['Mierové námestie', 'Palackého', 'Hviezdoslavova']],
  ['SK023', 'Nitriansky', 'SK0236', 'Nitra', '500011', 'Nitra', 'CITY', '94901', 48.3069, 18.0864, ['Štefánikova trieda', 'Farská', 'Kupecká']],
  ['SK031', 'Žilinský', 'SK0318', 'Žilina', '517402', 'Žilina', 'CITY', '01001', 49.2231, 18.7394, ['Hlavná', 'Národná', 'Kuzmányho']],
  ['SK032', 'Banskobystrický', 'SK0321', 'Banská Bystrica', '508438', 'Banská Bystrica', 'CITY', '97401', 48.7363, 19.1462, ['Námestie SNP', 'Dolná', 'Horná']],
  ['SK041', 'Prešovský', 'SK0417', 'Prešov', '524425', 'Prešov', 'CITY', '08001', 48.9985, 21.2391, ['Hlavná', 'Jarková', 'Okružná']],
  ['SK042', 'Košický', 'SK0425', 'Michalovce', '522431', 'Michalovce', 'CITY', '07101', 48.7543, 21.9195, ['Námestie osloboditeľov', 'Štefánikova', 'Záhradná']],
  // A village without streets: addresses are "<village> <súpisné číslo>".
  ['SK032', 'Banskobystrický', 'SK0321', 'Banská Bystrica', '508519', 'Čerín', 'MUNICIPALITY', '97681', 48.6566, 19.2133, []],
];
const HOUSES_PER_STREET = 4;

let changeId = 90000000;
const ids = { region: 100, county: 200, municipality: 3000, district: 4000, street: 5000, building: 60000, entrance: 70000 };
const head = (objectId) =>
  `      <changeId>${++changeId}</changeId>
      <changedAt>2024-01-02T03:00:00.000</changedAt>
      <databaseOperation>INSERT</databaseOperation>
      <objectId>${objectId}</objectId>
      <versionId>${objectId}</versionId>
      <createdReason>CREATE</createdReason>
      <effectiveDate>2000-01-01</effectiveDate>`;
const codelist = (list, code, name) =>
  `<Codelist><CodelistCode>${list}</CodelistCode><CodelistItem><ItemCode>${code}</ItemCode><ItemName>${name}</ItemName></CodelistItem></Codelist>`;

const regs = { REGION: [], COUNTY: [], MUNICIPALITY: [], DISTRICT: [], STREET_NAME: [], PROPERTY_REGISTRATION_NUMBER: [], BUILDING_NUMBER: [] };
const regionIds = new Map();
const countyIds = new Map();
let addresses = 0;

for (const [rc, rn, cc, cn, mc, mn, status, psc, lat, lon, streets] of PLACES) {
  if (!regionIds.has(rc)) {
    regionIds.set(rc, ++ids.region);
    regs.REGION.push(`    <regionChange>\n${head(ids.region)}\n      <Region>${codelist('CL000023', rc, rn)}</Region>\n    </regionChange>`);
  }
  if (!countyIds.has(cc)) {
    countyIds.set(cc, ++ids.county);
    regs.COUNTY.push(`    <countyChange>\n${head(ids.county)}\n      <County>${codelist('CL000024', cc, cn)}</County>\n      <regionIdentifier>${regionIds.get(rc)}</regionIdentifier>\n    </countyChange>`);
  }
  const muni = ++ids.municipality;
  regs.MUNICIPALITY.push(
    `    <municipalityChange>\n${head(muni)}\n      <Municipality>${codelist('CL000025', cc + mc, mn)}</Municipality>\n      <countyIdentifier>${countyIds.get(cc)}</countyIdentifier>\n      <status>${status}</status>\n    </municipalityChange>`,
  );
  const district = ++ids.district;
  regs.DISTRICT.push(
    `    <districtChange>\n${head(district)}\n      <District UniqueNumbering="false">${codelist('CL010141', mc, mn)}</District>\n      <municipalityIdentifier>${muni}</municipalityIdentifier>\n    </districtChange>`,
  );
  const building = (prn, dLat, dLon, street, orientation) => {
    const b = ++ids.building;
    regs.PROPERTY_REGISTRATION_NUMBER.push(
      `    <propertyRegistrationNumberChange>\n${head(b)}\n      <PropertyRegistrationNumber>${prn}</PropertyRegistrationNumber>\n      <Building ContainsFlats="true"><BuildingTypeCode>${codelist('CL010143', '10', 'Rodinný dom')}</BuildingTypeCode></Building>\n      <municipalityIdentifier>${muni}</municipalityIdentifier>\n      <districtIdentifier>${district}</districtIdentifier>\n    </propertyRegistrationNumberChange>`,
    );
    const e = ++ids.entrance;
    const number = orientation === undefined ? '' : `\n      <BuildingNumber>${orientation}</BuildingNumber>`;
    const streetRef = street === undefined ? '' : `\n      <streetNameIdentifier>${street}</streetNameIdentifier>`;
    regs.BUILDING_NUMBER.push(
      `    <buildingNumberChange>\n${head(e)}${number}\n      <BuildingIndex>${e}</BuildingIndex>\n      <PostalCode>${psc}</PostalCode>\n      <AddressPoint><BLH><AxisB>${(lat + dLat).toFixed(7)}</AxisB><AxisL>${(lon + dLon).toFixed(7)}</AxisL></BLH></AddressPoint>\n      <propertyRegistrationNumberIdentifier>${b}</propertyRegistrationNumberIdentifier>${streetRef}\n    </buildingNumberChange>`,
    );
    addresses++;
  };
  let prn = 100;
  streets.forEach((name, s) => {
    const street = ++ids.street;
    regs.STREET_NAME.push(
      `    <streetNameChange>\n${head(street)}\n      <StreetName>${name}</StreetName>\n      <municipalityIdentifier>${muni}</municipalityIdentifier>\n      <districtIdentifier>${district}</districtIdentifier>\n    </streetNameChange>`,
    );
    // Each street a short line from the centre in its own direction; orientation numbers 1, 3, 5, 7A.
    const angle = (s * 2 * Math.PI) / streets.length;
    for (let h = 0; h < HOUSES_PER_STREET; h++) {
      const d = 0.0006 * (h + 1);
      const orientation = h === HOUSES_PER_STREET - 1 ? `${2 * h + 1}A` : String(2 * h + 1);
      building(prn + s * 10 + h * 3 + 1, d * Math.cos(angle), 1.5 * d * Math.sin(angle), street, orientation);
    }
  });
  if (!streets.length) for (let h = 0; h < 5; h++) building(11 + h * 17, 0.0007 * h, 0.0009 * (h % 3), undefined, undefined);
}

const body = Object.entries(regs)
  .map(([type, items]) => `  <register>\n    <type>${type}</type>\n    <count>${items.length}</count>\n${items.join('\n')}\n  </register>`)
  .join('\n');
const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!-- The Slovak part of the bundled sample, written by tools/sample/write-sk-sample.js: do not edit by hand.
     Codelist names and codes of regions, counties and municipalities are public; streets, numbers,
     objectIds and positions are invented. ${addresses} address points. -->
<ns0:getChangesResponse xmlns:ns0="http://www.minv.sk/ra">
<return>
  <corrId>RA-Core-TID-sample-0001</corrId>
  <resultCode>1</resultCode>
  <changesId>1</changesId>
  <changesGenerated>2024-01-02T03:00:00.000</changesGenerated>
${body}
</return>
</ns0:getChangesResponse>
`;
const out = path.join(__dirname, '..', '..', 'libs/places/src/fixtures/sample/sk/DavkaInit-sample.xml');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, xml);
process.stdout.write(`${out}: ${addresses} address points\n`);
