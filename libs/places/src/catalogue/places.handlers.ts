import { MessagePattern, Payload } from '@nestjs/microservices';
import { CatalogueEntry, CatalogueRequest, Place, PlaceDetailRequest, Subjects } from '@lookup/contracts';
import { RpcHandlers } from '@lookup/shared/transport';
import { CatalogueService } from './catalogue.service';

@RpcHandlers()
export class PlacesHandlers {
  constructor(private readonly catalogue: CatalogueService) {}

  @MessagePattern(Subjects.places.regions)
  regions(@Payload() dto: CatalogueRequest): Promise<CatalogueEntry[]> {
    return this.catalogue.regions(dto.country);
  }

  @MessagePattern(Subjects.places.counties)
  counties(@Payload() dto: CatalogueRequest): Promise<CatalogueEntry[]> {
    return this.catalogue.counties(dto.country);
  }

  @MessagePattern(Subjects.places.municipalities)
  municipalities(@Payload() dto: CatalogueRequest): Promise<Place[]> {
    return this.catalogue.municipalities(dto.country);
  }

  @MessagePattern(Subjects.places.detail)
  detail(@Payload() dto: PlaceDetailRequest): Promise<Place> {
    return this.catalogue.detail(dto.place_id);
  }

  @MessagePattern(Subjects.places.health)
  health(): Promise<{ status: 'ok'; engine: string }> {
    return this.catalogue.health();
  }
}
