import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ApprovalStatuses,
  BulkDecisionMessage,
  CountResult,
  FbtTranslationGroup,
  Phrase,
  PhraseQueryMessage,
  PhraseUploadMessage,
  Subjects,
  Translation,
  TranslationActionMessage,
  TranslationExportMessage,
  TranslationQueryMessage,
  TranslationSubmitMessage,
  TranslationUploadMessage,
} from '@lookup/contracts';
import { RpcHandlers } from '@lookup/shared/transport';
import { Inject } from '@nestjs/common';
import { SERVICE_READINESS, ServiceReadiness } from '@lookup/shared/runtime';
import { PhrasesService, UploadOutcome } from './phrases/phrases.service';
import { TranslationsService } from './translations/translations.service';
import { TranslationUploadOutcome, TranslationUploadService } from './translations/translation-upload.service';

/** Every message carries the API key's project, added by the gateway (see intl.controller.ts). */
@RpcHandlers()
export class IntlHandlers {
  constructor(
    private readonly phrases: PhrasesService,
    private readonly translations: TranslationsService,
    private readonly imports: TranslationUploadService,
    @Inject(SERVICE_READINESS) private readonly ready: ServiceReadiness,
  ) {}

  @MessagePattern(Subjects.intl.phrasesUpload)
  upload(@Payload() dto: PhraseUploadMessage): Promise<UploadOutcome> {
    return this.phrases.upload(dto);
  }

  @MessagePattern(Subjects.intl.phrasesQuery)
  queryPhrases(@Payload() dto: PhraseQueryMessage): Promise<Phrase[]> {
    return this.phrases.query(dto);
  }

  @MessagePattern(Subjects.intl.translationSubmit)
  submit(@Payload() dto: TranslationSubmitMessage): Promise<Translation> {
    return this.translations.submit(dto);
  }

  @MessagePattern(Subjects.intl.translationsQuery)
  queryTranslations(@Payload() dto: TranslationQueryMessage): Promise<Translation[]> {
    return this.translations.query(dto);
  }

  @MessagePattern(Subjects.intl.vote)
  vote(@Payload() dto: TranslationActionMessage): Promise<Translation> {
    return this.translations.vote(dto);
  }

  @MessagePattern(Subjects.intl.approve)
  approve(@Payload() dto: TranslationActionMessage): Promise<Translation> {
    return this.translations.approve(dto);
  }

  @MessagePattern(Subjects.intl.reject)
  reject(@Payload() dto: TranslationActionMessage): Promise<Translation> {
    return this.translations.reject(dto);
  }

  @MessagePattern(Subjects.intl.bulkApprove)
  bulkApprove(@Payload() dto: BulkDecisionMessage): Promise<CountResult> {
    return this.translations.decideLocale(dto, ApprovalStatuses.approved);
  }

  @MessagePattern(Subjects.intl.bulkReject)
  bulkReject(@Payload() dto: BulkDecisionMessage): Promise<CountResult> {
    return this.translations.decideLocale(dto, ApprovalStatuses.rejected);
  }

  @MessagePattern(Subjects.intl.export)
  export(@Payload() dto: TranslationExportMessage): Promise<FbtTranslationGroup> {
    return this.translations.export(dto);
  }

  @MessagePattern(Subjects.intl.translationsUpload)
  uploadTranslations(@Payload() dto: TranslationUploadMessage): Promise<TranslationUploadOutcome> {
    return this.imports.upload(dto);
  }

  @MessagePattern(Subjects.intl.health)
  async health(): Promise<{ status: 'ok' }> {
    await this.ready();
    return { status: 'ok' };
  }
}
