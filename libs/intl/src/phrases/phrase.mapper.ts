import { Phrase } from '@lookup/contracts';
import { PhraseEntity } from '../store/intl.entities';

export function toPhrase(e: PhraseEntity): Phrase {
  return {
    id: e.id,
    parent_id: e.parentId,
    object: 'phrase',
    source: { type: e.type, jsfbt: e.jsfbt },
    hash: e.hash,
    text: e.text,
    description: e.description,
    author: e.author,
    project: e.fbtProject,
    created_at: e.createdAt,
  };
}
