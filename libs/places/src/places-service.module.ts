import { DynamicModule, Module } from '@nestjs/common';
import { ServiceHealthController } from '@lookup/shared/runtime';
import { PlacesModule, PlacesModuleOptions } from './places.module';

/** The places app: its handlers plus probe routes. */
@Module({})
export class PlacesServiceModule {
  static forRoot(options: PlacesModuleOptions): DynamicModule {
    const places = PlacesModule.forRoot(options);
    return { module: PlacesServiceModule, imports: [places], controllers: [ServiceHealthController] };
  }
}
