import { Injectable } from '@nestjs/common';
import { CountryCode, DEFAULT_LIMIT, parseRequest, Place, PlaceQueryRequest, PlaceValidateRequest, PlaceValidation } from '@lookup/contracts';
import { PlacesSearchService } from '../search/places-search.service';
import { AddressInput, readInputs } from './validate-input';
import { validationSearches } from './validate-searches';
import { decideValidation, isSettled } from './validate-verdict';

/**
 * One validation = read the typed address (pure) -> the address searches, strictest first,
 * through the search service's public API (same ranking, typo tolerance and engines as
 * autocomplete) -> compare every candidate with the typed parts (pure) -> verdict. A looser
 * search runs only while the stricter ones found nothing that could be the typed address.
 */
@Injectable()
export class PlacesValidateService {
  constructor(private readonly search: PlacesSearchService) {}

  async validate(dto: PlaceValidateRequest): Promise<PlaceValidation> {
    // Another reading of the typed text (a four-digit postal code) only where the first found nothing.
    const [first, ...others] = readInputs(dto);
    const verdict = await this.validateReading(first!, dto);
    for (const input of isSettled(verdict) ? [] : others) {
      const other = await this.validateReading(input, dto);
      if (isSettled(other)) return other;
    }
    return verdict;
  }

  private async validateReading(input: AddressInput, dto: PlaceValidateRequest): Promise<PlaceValidation> {
    const limit = dto.limit ?? DEFAULT_LIMIT;
    const found: Place[] = [];
    // The typed postal code's own town per country (its post office's), read once a candidate of that country has the code.
    const offices = new Map<CountryCode, string | null>();
    const officeTown = (p: Place) => offices.get(p.country as CountryCode) ?? null;
    let verdict = decideValidation(input, found, limit);
    for (const params of validationSearches(input, dto)) {
      found.push(...(await this.search.query(parseRequest(PlaceQueryRequest, params))));
      if (input.postal) {
        const digits = input.postal.digits;
        const asked = [...new Set(found.filter((p) => p.postal_code?.replace(/[\s-]/g, '') === digits).map((p) => p.country as CountryCode))].filter((c) => !offices.has(c));
        for (const [country, town] of await this.search.postalCodeTowns(asked, digits)) offices.set(country, town);
      }
      verdict = decideValidation(input, found, limit, officeTown);
      if (isSettled(verdict)) break;
    }
    // No postal code typed, and nothing fits: a town written may be the post office's of the
    // address's own code (`Sobětuchy 45, Chrudim`: 537 01 Chrudim), as the search reads it too.
    if (!isSettled(verdict) && !input.postal && found.length) verdict = decideValidation(input, found, limit, await this.search.officeTownsOf(found));
    return verdict;
  }
}
