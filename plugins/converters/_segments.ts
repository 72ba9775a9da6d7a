export interface Segment {
  segment: string;
  index: number;
  isWordLike?: boolean;
}

const window = 2048;
/** Word and grapheme rules look a few characters ahead; a boundary this far from a window's end is final. */
const margin = 64;

/**
 * `segmenter.segment(text)`, in linear time. V8 copies the whole input into every segment it yields, so
 * a 100,000-character text cost minutes and gigabytes (a heap crash when the segments were kept). Here
 * the text is segmented in windows, each restarting at a boundary well inside the previous one; a segment
 * longer than a window (a run-on sentence) is joined back together.
 */
export function* segmentsOf(segmenter: Intl.Segmenter, text: string): Generator<Segment> {
  let start = 0;
  let open: number | undefined;
  while (start < text.length) {
    const end = Math.min(text.length, start + window);
    const piece = text.slice(start, end);
    let next = end;
    for (const s of segmenter.segment(piece)) {
      const reachesEnd = s.index + s.segment.length === piece.length;
      if (end < text.length && s.index > 0 && s.index + s.segment.length > piece.length - margin) {
        next = start + s.index;
        break;
      }
      if (end < text.length && s.index === 0 && reachesEnd) {
        open ??= start;
        break;
      }
      const from = s.index === 0 && open !== undefined ? open : start + s.index;
      if (s.index === 0) open = undefined;
      yield { segment: text.slice(from, start + s.index + s.segment.length), index: from, isWordLike: s.isWordLike };
    }
    start = next;
  }
}

const segmenters = new Map<Intl.SegmenterOptions["granularity"], Intl.Segmenter>();
/** An English segmenter, built on first use rather than at boot: ICU loads its break rules then (about 20 ms). */
export function englishSegmenter(granularity: "grapheme" | "word" | "sentence"): Intl.Segmenter {
  let segmenter = segmenters.get(granularity);
  if (!segmenter) segmenters.set(granularity, (segmenter = new Intl.Segmenter("en", { granularity })));
  return segmenter;
}
