/* Chinese search for a phrase typed without spaces. Sphinx indexed the pages with jieba, so the
   index holds words (环形, 全归约, 手写), while a reader types 手写环形全归约 as one run of
   characters, which no index entry equals. Sphinx's search asks `splitQuery` for the query's
   words: this one keeps Sphinx's split at spaces and punctuation, then cuts each run of Chinese
   characters into the longest words the index itself holds (forward maximum matching over the
   index's terms and title terms). A single character that is no word of the index is dropped, as
   the index dropped it (Sphinx keeps Chinese words of two characters or more). */
(() => {
  const HAN = /[\u{3400}-\u{9fff}\u{f900}-\u{faff}]/u;
  const RUNS = /[\u{3400}-\u{9fff}\u{f900}-\u{faff}]+|[^\u{3400}-\u{9fff}\u{f900}-\u{faff}]+/gu;
  const sphinxSplit = (query) => query
    .split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu)
    .filter((term) => term);
  let words = null;
  let longest = 1;

  const indexWords = () => {
    if (words) return words;
    const index = (typeof Search !== "undefined" && Search._index) || {};   // Sphinx's const
    words = new Set([...Object.keys(index.terms || {}), ...Object.keys(index.titleterms || {})]
      .filter((w) => HAN.test(w)));
    words.forEach((w) => { longest = Math.max(longest, w.length); });
    return words;
  };

  const cut = (run) => {
    const known = indexWords();
    const found = [];
    let i = 0;
    while (i < run.length) {
      let j = Math.min(run.length, i + longest);
      while (j > i + 1 && !known.has(run.slice(i, j))) j -= 1;
      const word = run.slice(i, j);
      if (known.has(word) || word.length > 1) found.push(word);
      i = j;
    }
    return found;
  };

  const splitChinese = (query) => sphinxSplit(query).flatMap((term) =>
    HAN.test(term) ? term.match(RUNS).flatMap((run) => {
      if (!HAN.test(run)) return [run];
      const found = cut(run);
      return found.length ? found : [run];   // no word of the index: Sphinx's partial match
    }) : [term]);

  window.splitQuery = splitChinese;
  window.courseSplitChinese = splitChinese;   // for the site's browser test
})();
