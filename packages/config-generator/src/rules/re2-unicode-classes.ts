/**
 * The names RE2 accepts in `\p{...}` and `\P{...}`, as Go's regexp/syntax (Go 1.26) looks them up:
 * after canonicalizing (first letter upper case, the rest lower case, no `_`, `-` or spaces) a
 * name must be `Any`, `Assigned`, `Ascii`, `Lc`, a key of unicode.Categories or unicode.Scripts,
 * or a canonicalized unicode.CategoryAliases key. So `\p{greek}` and `\p{letter}` work, while
 * `\p{Grek}` (which JavaScript knows) and multi-word scripts such as `Old_Italic` do not.
 */

const SPECIAL = ['Any', 'Assigned', 'Ascii', 'Lc'];

const CATEGORIES = ['C', 'Cc', 'Cf', 'Cn', 'Co', 'Cs', 'L', 'LC', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn', 'N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl', 'Zp', 'Zs'];

const CATEGORY_ALIASES = [
  'Cased_Letter', 'Close_Punctuation', 'Combining_Mark', 'Connector_Punctuation', 'Control', 'Currency_Symbol', 'Dash_Punctuation',
  'Decimal_Number', 'Enclosing_Mark', 'Final_Punctuation', 'Format', 'Initial_Punctuation', 'Letter', 'Letter_Number', 'Line_Separator',
  'Lowercase_Letter', 'Mark', 'Math_Symbol', 'Modifier_Letter', 'Modifier_Symbol', 'Nonspacing_Mark', 'Number', 'Open_Punctuation', 'Other',
  'Other_Letter', 'Other_Number', 'Other_Punctuation', 'Other_Symbol', 'Paragraph_Separator', 'Private_Use', 'Punctuation', 'Separator',
  'Space_Separator', 'Spacing_Mark', 'Surrogate', 'Symbol', 'Titlecase_Letter', 'Unassigned', 'Uppercase_Letter', 'cntrl', 'digit', 'punct',
];

/** unicode.Scripts keys (Unicode 15 in Go 1.26). */
const SCRIPTS = `
  Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali
  Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma
  Cham Cherokee Chorasmian Common Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic Deseret Devanagari
  Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Georgian Glagolitic Gothic
  Grantha Greek Gujarati Gunjala_Gondi Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew
  Hiragana Imperial_Aramaic Inherited Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi
  Kannada Katakana Kawi Kayah_Li Kharoshthi Khitan_Small_Script Khmer Khojki Khudawadi Lao Latin Lepcha
  Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani Makasar Malayalam Mandaic Manichaean Marchen
  Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi
  Mongolian Mro Multani Myanmar Nabataean Nag_Mundari Nandinagari New_Tai_Lue Newa Nko Nushu
  Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic Old_North_Arabian Old_Permic
  Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong
  Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada
  Shavian Siddham SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Syloti_Nagri Syriac Tagalog
  Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangsa Tangut Telugu Thaana Thai Tibetan Tifinagh
  Tirhuta Toto Ugaritic Vai Vithkuqi Wancho Warang_Citi Yezidi Yi Zanabazar_Square
`.trim().split(/\s+/);

const KNOWN = new Set([...SPECIAL, ...CATEGORIES, ...SCRIPTS, ...CATEGORY_ALIASES.map(canonicalName)]);

/** Whether `\p{name}` compiles in RE2 (`name` without a leading `^`). */
export function isRe2UnicodeClassName(name: string): boolean {
  return KNOWN.has(canonicalName(name));
}

/** Go's canonicalName: "Greek" for "greek", "GREEK" or "gre_ek". */
function canonicalName(name: string): string {
  let result = '';
  let first = true;
  for (const ch of name) {
    if (ch === '_' || ch === '-' || ch === ' ') continue;
    if (first) {
      result += ch >= 'a' && ch <= 'z' ? ch.toUpperCase() : ch;
      first = false;
    } else {
      result += ch >= 'A' && ch <= 'Z' ? ch.toLowerCase() : ch;
    }
  }
  return result;
}
