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
import { RawJson, RpcHandlers } from '@lookup/shared/transport';
import { PlacesSearchService } from './places-search.service';

@RpcHandlers()
export class PlacesSearchHandlers {
  constructor(private readonly search: PlacesSearchService) {}

  @MessagePattern(Subjects.places.query)
  query(@Payload() dto: PlaceQueryRequest): Promise<Place[] | RawJson> {
    return this.search.answer('query', dto);
  }

  @MessagePattern(Subjects.places.street)
  street(@Payload() dto: StreetQueryRequest): Promise<Place[] | RawJson> {
    return this.search.answer('street', dto);
  }

  @MessagePattern(Subjects.places.municipality)
  municipality(@Payload() dto: MunicipalityQueryRequest): Promise<Place[] | RawJson> {
    return this.search.answer('municipality', dto);
  }

  @MessagePattern(Subjects.places.postal)
  postal(@Payload() dto: PostalQueryRequest): Promise<Place[] | RawJson> {
    return this.search.answer('postal', dto);
  }

  @MessagePattern(Subjects.places.reverse)
  reverse(@Payload() dto: PlaceReverseRequest): Promise<Place[] | RawJson> {
    return this.search.answerReverse(dto);
  }
}
