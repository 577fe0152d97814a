import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CatalogueEntry, CatalogueRequest, Place, Subjects } from '@lookup/contracts';
import { Forwarder } from './forwarder.service';
import { Params } from '../http/request-params';
import { CurrentKey } from './api-key.decorator';
import { AuthenticatedKey } from '../keys/api-key.service';

/** Catalogues: whole lists, not counted in the monthly limit. */
@ApiTags('places')
@Controller('v1/places')
export class PlacesCatalogueController {
  constructor(private readonly forwarder: Forwarder) {}

  @Post('regions')
  @HttpCode(200)
  @ApiOperation({ summary: 'All regions of a country' })
  @ApiBody({ type: CatalogueRequest })
  @ApiOkResponse({ type: [CatalogueEntry] })
  regions(@Params(CatalogueRequest) dto: CatalogueRequest, @CurrentKey() key: AuthenticatedKey): Promise<CatalogueEntry[]> {
    return this.forwarder.forward(Subjects.places.regions, dto, key, null);
  }

  @Post('counties')
  @HttpCode(200)
  @ApiOperation({ summary: 'All counties of a country' })
  @ApiBody({ type: CatalogueRequest })
  @ApiOkResponse({ type: [CatalogueEntry] })
  counties(@Params(CatalogueRequest) dto: CatalogueRequest, @CurrentKey() key: AuthenticatedKey): Promise<CatalogueEntry[]> {
    return this.forwarder.forward(Subjects.places.counties, dto, key, null);
  }

  @Post('municipalities')
  @HttpCode(200)
  @ApiOperation({ summary: 'All municipalities of a country, as Place objects of kind municipality' })
  @ApiBody({ type: CatalogueRequest })
  @ApiOkResponse({ type: [Place] })
  municipalities(@Params(CatalogueRequest) dto: CatalogueRequest, @CurrentKey() key: AuthenticatedKey): Promise<Place[]> {
    return this.forwarder.forward(Subjects.places.municipalities, dto, key, null);
  }
}
