import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  MunicipalityQueryRequest,
  Place,
  PlaceQueryRequest,
  PlaceReverseRequest,
  PostalQueryRequest,
  StreetQueryRequest,
  Subjects,
} from '@lookup/contracts';
import { RpcHandlers } from '@lookup/shared/transport';
import { PlacesSearchService } from './places-search.service';

@RpcHandlers()
export class PlacesSearchHandlers {
  constructor(private readonly search: PlacesSearchService) {}

  @MessagePattern(Subjects.places.query)
  query(@Payload() dto: PlaceQueryRequest): Promise<Place[]> {
    return this.search.query(dto);
  }

  @MessagePattern(Subjects.places.street)
  street(@Payload() dto: StreetQueryRequest): Promise<Place[]> {
    return this.search.street(dto);
  }

  @MessagePattern(Subjects.places.municipality)
  municipality(@Payload() dto: MunicipalityQueryRequest): Promise<Place[]> {
    return this.search.municipality(dto);
  }

  @MessagePattern(Subjects.places.postal)
  postal(@Payload() dto: PostalQueryRequest): Promise<Place[]> {
    return this.search.postal(dto);
  }

  @MessagePattern(Subjects.places.reverse)
  reverse(@Payload() dto: PlaceReverseRequest): Promise<Place[]> {
    return this.search.reverse(dto);
  }
}
