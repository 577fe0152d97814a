import { Injectable } from '@nestjs/common';
import { DEFAULT_LIMIT, parseRequest, Place, PlaceQueryRequest, PlaceValidateRequest, PlaceValidation } from '@lookup/contracts';
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
    let verdict = decideValidation(input, found, limit);
    for (const params of validationSearches(input, dto)) {
      found.push(...(await this.search.query(parseRequest(PlaceQueryRequest, params))));
      verdict = decideValidation(input, found, limit);
      if (isSettled(verdict)) break;
    }
    return verdict;
  }
}
