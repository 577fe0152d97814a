import { DynamicModule, Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigModule } from '@lookup/shared/config';
import { SERVICE_READINESS, ServiceHealthController } from '@lookup/shared/runtime';
import { IntlHandlers } from './intl.handlers';
import { PhrasesService } from './phrases/phrases.service';
import { ProjectsService } from './projects/projects.service';
import { INTL_DB, intlDataSourceOptions } from './store/intl.store';
import { TranslationsService } from './translations/translations.service';
import { TranslationUploadService } from './translations/translation-upload.service';

export interface IntlModuleOptions {
  config: AppConfig;
}

const DS = getDataSourceToken(INTL_DB);

/** The intl area: phrases, translations, votes; its own TypeORM connection and migrations. */
@Module({})
export class IntlModule {
  static forRoot(options: IntlModuleOptions): DynamicModule {
    return {
      module: IntlModule,
      imports: [ConfigModule.forRoot(options.config), TypeOrmModule.forRoot(intlDataSourceOptions(options.config))],
      controllers: [IntlHandlers],
      providers: [
        { provide: ProjectsService, inject: [DS], useFactory: (ds: DataSource) => new ProjectsService(ds) },
        { provide: PhrasesService, inject: [DS, ProjectsService], useFactory: (ds: DataSource, p: ProjectsService) => new PhrasesService(ds, p) },
        {
          provide: TranslationsService,
          inject: [DS, ProjectsService],
          useFactory: (ds: DataSource, p: ProjectsService) => new TranslationsService(ds, p, options.config.INTL_APPROVAL_VOTES),
        },
        { provide: TranslationUploadService, inject: [DS, ProjectsService], useFactory: (ds: DataSource, p: ProjectsService) => new TranslationUploadService(ds, p) },
        { provide: SERVICE_READINESS, inject: [DS], useFactory: (ds: DataSource) => async () => void (await ds.query('SELECT 1')) },
      ],
      exports: [SERVICE_READINESS, ProjectsService, PhrasesService, TranslationsService, TranslationUploadService],
    };
  }
}

/** The intl app: its handlers plus probe routes. */
@Module({})
export class IntlServiceModule {
  static forRoot(options: IntlModuleOptions): DynamicModule {
    return { module: IntlServiceModule, imports: [IntlModule.forRoot(options)], controllers: [ServiceHealthController] };
  }
}
