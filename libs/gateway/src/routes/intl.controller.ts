import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  BulkDecisionRequest,
  CountResult,
  DomainError,
  ErrorTypes,
  FbtTranslationGroup,
  Phrase,
  PhraseQueryRequest,
  PhraseUploadRequest,
  Subjects,
  Translation,
  TranslationActionRequest,
  TranslationExportRequest,
  TranslationQueryRequest,
  TranslationSubmitRequest,
  TranslationUploadRequest,
  UploadResult,
} from '@lookup/contracts';
import { Forwarder } from './forwarder.service';
import { Params } from '../http/request-params';
import { CurrentKey } from './api-key.decorator';
import { AuthenticatedKey } from '../keys/api-key.service';

/**
 * Phrases and translations (fbt). Not counted in the monthly limits. A request acts on the
 * project its API key is bound to: the caller's parameters are validated with the public DTO
 * (which has no `project`), then the key's project is added here, so no caller can choose it.
 */
@ApiTags('intl')
@Controller('v1/intl')
export class IntlController {
  constructor(private readonly forwarder: Forwarder) {}

  @Post('phrases/upload')
  @HttpCode(200)
  @ApiOperation({ summary: "Save the native phrases of fbt's collection output" })
  @ApiBody({ type: PhraseUploadRequest })
  @ApiOkResponse({ type: UploadResult })
  upload(@Params(PhraseUploadRequest) dto: PhraseUploadRequest, @CurrentKey() key: AuthenticatedKey): Promise<UploadResult> {
    return this.send(Subjects.intl.phrasesUpload, dto, key);
  }

  @Post('phrases/query')
  @HttpCode(200)
  @ApiOperation({ summary: 'Search phrases (text and description), or list all' })
  @ApiBody({ type: PhraseQueryRequest })
  @ApiOkResponse({ type: [Phrase] })
  phrases(@Params(PhraseQueryRequest) dto: PhraseQueryRequest, @CurrentKey() key: AuthenticatedKey): Promise<Phrase[]> {
    return this.send(Subjects.intl.phrasesQuery, dto, key);
  }

  // The spec's path, and the one the official Node client calls (translations.translate).
  @Post(['translation/submit', 'translations/submit'])
  @HttpCode(200)
  @ApiOperation({ summary: 'Submit a translation of a phrase (by a project member)' })
  @ApiBody({ type: TranslationSubmitRequest })
  @ApiOkResponse({ type: Translation })
  submit(@Params(TranslationSubmitRequest) dto: TranslationSubmitRequest, @CurrentKey() key: AuthenticatedKey): Promise<Translation> {
    return this.send(Subjects.intl.translationSubmit, dto, key);
  }

  @Post('translations/query')
  @HttpCode(200)
  @ApiOperation({ summary: 'Search translations, or list the approved ones' })
  @ApiBody({ type: TranslationQueryRequest })
  @ApiOkResponse({ type: [Translation] })
  translations(@Params(TranslationQueryRequest) dto: TranslationQueryRequest, @CurrentKey() key: AuthenticatedKey): Promise<Translation[]> {
    return this.send(Subjects.intl.translationsQuery, dto, key);
  }

  @Post('translations/vote')
  @HttpCode(200)
  @ApiOperation({ summary: 'Vote for a translation (one vote per member; INTL_APPROVAL_VOTES votes approve it)' })
  @ApiBody({ type: TranslationActionRequest })
  @ApiOkResponse({ type: Translation })
  vote(@Params(TranslationActionRequest) dto: TranslationActionRequest, @CurrentKey() key: AuthenticatedKey): Promise<Translation> {
    return this.send(Subjects.intl.vote, dto, key);
  }

  @Post('translations/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve a translation (administrators)' })
  @ApiBody({ type: TranslationActionRequest })
  @ApiOkResponse({ type: Translation })
  approve(@Params(TranslationActionRequest) dto: TranslationActionRequest, @CurrentKey() key: AuthenticatedKey): Promise<Translation> {
    return this.send(Subjects.intl.approve, dto, key);
  }

  @Post('translations/reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject a translation (administrators)' })
  @ApiBody({ type: TranslationActionRequest })
  @ApiOkResponse({ type: Translation })
  reject(@Params(TranslationActionRequest) dto: TranslationActionRequest, @CurrentKey() key: AuthenticatedKey): Promise<Translation> {
    return this.send(Subjects.intl.reject, dto, key);
  }

  @Post('translations/bulk-approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve every pending translation of a locale (administrators)' })
  @ApiBody({ type: BulkDecisionRequest })
  @ApiOkResponse({ type: CountResult })
  bulkApprove(@Params(BulkDecisionRequest) dto: BulkDecisionRequest, @CurrentKey() key: AuthenticatedKey): Promise<CountResult> {
    return this.send(Subjects.intl.bulkApprove, dto, key);
  }

  @Post('translations/bulk-reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject every pending translation of a locale (administrators)' })
  @ApiBody({ type: BulkDecisionRequest })
  @ApiOkResponse({ type: CountResult })
  bulkReject(@Params(BulkDecisionRequest) dto: BulkDecisionRequest, @CurrentKey() key: AuthenticatedKey): Promise<CountResult> {
    return this.send(Subjects.intl.bulkReject, dto, key);
  }

  @Post('translations/upload')
  @HttpCode(200)
  @ApiOperation({ summary: 'Import an fbt translation file as pending translations (by a project member)' })
  @ApiBody({ type: TranslationUploadRequest })
  uploadTranslations(@Params(TranslationUploadRequest) dto: TranslationUploadRequest, @CurrentKey() key: AuthenticatedKey): Promise<{ inserted: number; unknown_hashes: string[] }> {
    return this.send(Subjects.intl.translationsUpload, dto, key);
  }

  @Post('translations/export')
  @HttpCode(200)
  @ApiOperation({ summary: "Approved translations of a locale, as a translation file of fbt's translate step" })
  @ApiBody({ type: TranslationExportRequest })
  exportLocale(@Params(TranslationExportRequest) dto: TranslationExportRequest, @CurrentKey() key: AuthenticatedKey): Promise<FbtTranslationGroup> {
    return this.send(Subjects.intl.export, dto, key);
  }

  /** The same export as the official Node client's translations.raw (a GET, `locale` in the query string). */
  @Get('translations/raw')
  @ApiOperation({ summary: 'Same as POST translations/export' })
  raw(@Params(TranslationExportRequest) dto: TranslationExportRequest, @CurrentKey() key: AuthenticatedKey): Promise<FbtTranslationGroup> {
    return this.send(Subjects.intl.export, dto, key);
  }

  private send<T>(subject: string, dto: object, key: AuthenticatedKey | undefined): Promise<T> {
    if (!key?.project) {
      throw new DomainError(ErrorTypes.invalidRequest, 'This API key is not bound to a project; phrase and translation calls need a key created for one.', 'api_key');
    }
    return this.forwarder.forward<T>(subject, { ...dto, project: key.project }, key, null);
  }
}
