// The Train view's tasks (train.html): the default probe, the unit of
// length and the explanation of each (catalogue keys, web/figures/i18n/), and
// the sample for "your own pairs". The tasks themselves are the trainer's
// (src/train/tasks.cpp).

export const TASKS = {
  reversal: {
    probe: 'a b c d e f g h a b', // 10 symbols: long enough for the snapshot's rule (train-snapshot.js)
    unit: 'train.unitSymbols',
    explain: 'train.explainReversal',
  },
  dates: {
    probe: 'december 2nd, 2026',
    unit: 'train.unitCharacters',
    explain: 'train.explainDates',
  },
  pairs: {
    probe: '',
    unit: 'train.unitTokens',
    explain: 'train.explainPairs',
  },
};

// A default for "your own pairs": numbers written out in English, to digits.
export function samplePairs() {
  const ones = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven',
    'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
  const tens = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
  const words = (n) => {
    const parts = [];
    if (n >= 100) parts.push(ones[Math.floor(n / 100)], 'hundred');
    const rest = n % 100;
    if (rest >= 20) parts.push(tens[Math.floor(rest / 10)], ...(rest % 10 ? [ones[rest % 10]] : []));
    else if (rest > 0 || n < 100) parts.push(ones[rest]);
    return parts.join(' ');
  };
  const lines = [];
  for (let n = 1; n < 1000; n += 3) lines.push(`${words(n)}\t${[...String(n)].join(' ')}`);
  return lines.join('\n');
}
