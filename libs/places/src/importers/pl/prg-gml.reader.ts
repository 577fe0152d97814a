import { SaxesParser } from 'saxes';
import { walkXml } from '../io/xml';
import { SourceFile } from '../io/source';

/**
 * The PRG objects this importer reads, by local name. 2012 schema
 * (`urn:gugik:specyfikacje:gmlas:panstwowyRejestrGranicAdresy:1.0`): address points with
 * `komponent` links to unit, locality and street name objects; 2021 schema
 * (`https://geoportal.gov.pl/schemas/prgad/1.0`): address points with `miejscowosc`/`ulica2`
 * links to locality and street objects. Element names only are matched (prefixes vary).
 */
export const PRG_POINT = new Set(['PRG_PunktAdresowy', 'AD_PunktAdresowy']);
export const PRG_DICTIONARY = new Set(['PRG_JednostkaAdministracyjnaNazwa', 'PRG_MiejscowoscNazwa', 'PRG_UlicaNazwa', 'AD_Miejscowosc', 'AD_UlicaPlac']);

/** Elements whose content is geometry or a nested name we do not keep as plain leaves. */
const POSITION = new Set(['pozycja', 'georeferencja']);
const SKIPPED = new Set(['geometria']);

/** One PRG object, flattened: leaf texts and link targets by element local name, in document order. */
export interface PrgFeature {
  /** Local element name, e.g. `PRG_PunktAdresowy`. */
  type: string;
  gmlId: string;
  text: Map<string, string[]>;
  /** `xlink:href` targets by element local name (`komponent`, `miejscowosc`, `ulica2`). */
  href: Map<string, string[]>;
  /** The point position's `gml:pos` and its `srsName` (inherited from the `gml:Point`). */
  pos: string | null;
  srsName: string | null;
  /** Line of the object's start tag, for error messages. */
  line: number;
}

export function firstText(f: PrgFeature, name: string): string | null {
  return f.text.get(name)?.[0] ?? null;
}

/** The object id a link points at: the last segment of `http://geoportal.gov.pl/PZGIK/dane/<gml:id>` or `#<gml:id>`. */
export function linkTarget(href: string): string {
  return href.trim().replace(/^.*[/#]/, '');
}

/**
 * Streams the PRG objects of the wanted types from one GML file, one at a time: memory is one
 * object plus one decoded chunk, whatever the file size. Malformed XML throws with the file name.
 */
export async function* readPrgFeatures(file: SourceFile, wanted: ReadonlySet<string>): AsyncGenerator<PrgFeature> {
  const parser = new SaxesParser({ position: true });
  const walker = new FeatureWalker(wanted, () => parser.line);
  yield* walkXml(file, parser, { out: walker.out, open: (tag: XmlTag) => walker.open(tag), close: (tag: XmlTag) => walker.close(localName(tag.name)), text: (t: string) => walker.text(t) });
}

/** What the walker needs of a saxes tag (not namespace-aware: names keep their prefix). */
interface XmlTag {
  name: string;
  attributes: Record<string, unknown>;
}

/** Push-side state machine fed by saxes events; finished objects pile up in `out`. */
class FeatureWalker {
  readonly out: PrgFeature[] = [];
  private depth = 0;
  private feature: PrgFeature | null = null;
  private featureDepth = 0;
  /** Depth of the enclosing `pozycja`/`georeferencja` (0 outside one). */
  private positionDepth = 0;
  /** Depth of a subtree whose text is not kept (line and area geometry). */
  private skipDepth = 0;
  private srsName: string | null = null;
  private buf = '';

  constructor(
    private readonly wanted: ReadonlySet<string>,
    private readonly line: () => number,
  ) {}

  open(tag: XmlTag): void {
    this.depth++;
    this.buf = '';
    const name = localName(tag.name);
    if (!this.feature) {
      if (this.wanted.has(name)) {
        this.feature = { type: name, gmlId: attr(tag, 'id') ?? '', text: new Map(), href: new Map(), pos: null, srsName: null, line: this.line() };
        this.featureDepth = this.depth;
      }
      return;
    }
    if (this.skipDepth) return;
    if (SKIPPED.has(name)) this.skipDepth = this.depth;
    else if (POSITION.has(name)) [this.positionDepth, this.srsName] = [this.depth, null];
    else if (this.positionDepth && name === 'Point') this.srsName = attr(tag, 'srsName');
    const href = attr(tag, 'href');
    if (href) push(this.feature.href, name, href);
  }

  text(t: string): void {
    if (this.feature && !this.skipDepth) this.buf += t;
  }

  close(name: string): void {
    const f = this.feature;
    const depth = this.depth--;
    const text = this.buf.trim();
    this.buf = '';
    if (!f) return;
    if (depth === this.featureDepth) {
      this.out.push(f);
      this.feature = null;
      return;
    }
    if (this.skipDepth) {
      if (depth === this.skipDepth) this.skipDepth = 0;
      return;
    }
    if (this.positionDepth) {
      // Only the position's first `gml:pos` is kept, with its Point's srsName.
      if (depth === this.positionDepth) this.positionDepth = 0;
      else if (name === 'pos' && text && f.pos === null) [f.pos, f.srsName] = [text, this.srsName];
      return;
    }
    if (text) push(f.text, name, text);
  }
}

function push(m: Map<string, string[]>, key: string, value: string): void {
  const list = m.get(key);
  if (list) list.push(value);
  else m.set(key, [value]);
}

function attr(tag: XmlTag, local: string): string | null {
  for (const [k, v] of Object.entries(tag.attributes)) if (localName(k) === local) return String(v);
  return null;
}

function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}
