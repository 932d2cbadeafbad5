package io.fabriclab.topology.describe;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabriclab.model.ScaleUp;
import io.fabriclab.model.SwitchLatency;

/**
 * Cuts a description into tokens: numbers (digits, with thousands separators, or words), speeds
 * ("400G", "400 Gb/s", "400GbE", "1.6T"), lengths ("50 m", "3 metres", "10 ft"), ratios ("2:1"),
 * words and punctuation; then joins number words ("thirty-two") and the lexicon's phrases, and
 * recognises switch products (the switch-latency table) and GPUs (the scale-up table).
 */
final class Lexer {
    private static final String NO_LEFT = "(?<![\\p{L}\\p{N}.&&[^xX×]])(?<!\\d,)";
    private static final String NO_RIGHT = "(?![\\p{L}\\p{N}])";
    private static final String NUM = "(\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?)";
    private static final Pattern TOKEN = Pattern.compile(
            "(?<quoted>[\"“”]([^\"“”]{0,200})[\"“”])"
                    + "|(?<kilo>" + NO_LEFT + "\\d+(?:\\.\\d+)?\\s?k" + NO_RIGHT + ")"
                    + "|(?<ratio>" + NO_LEFT + num("rl") + "\\s*:\\s*" + num("rr") + NO_RIGHT + ")"
                    + "|(?<speed>" + NO_LEFT + num("sv") + "\\s*-?\\s*(?<su>tb/s|tbit/s|tbps|t|gb/s|gbit/s|gbps|gbe|gige|gig|g)" + NO_RIGHT + ")"
                    + "|(?<length>" + NO_LEFT + num("lv") + "\\s*-?\\s*(?<lu>metres|meters|metre|meter|mtrs|mtr|m|feet|foot|ft)" + NO_RIGHT + ")"
                    + "|(?<count>" + NO_LEFT + NUM + "(?=\\s*[x×*]\\s*\\d))"
                    + "|(?<number>" + NO_LEFT + NUM + NO_RIGHT + ")"
                    + "|(?<times>(?<=\\d\\s{0,3})[x×*](?=\\s*\\d))"
                    + "|(?<word>[\\p{L}\\p{N}]*\\p{L}[\\p{L}\\p{N}]*(?:'s)?|w/o)"
                    + "|(?<sep>[,;.!?\\n]+)"
                    + "|(?<punct>\\S)",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern UNKNOWN_GPU = Pattern.compile("(mi\\d{3}[a-z]*|gb\\d{3}|gh\\d{3}|[abhlv]\\d{2,3}[a-z]?|rtx\\d+)s?");

    private static final Map<String, Integer> ONES = Map.ofEntries(Map.entry("zero", 0), Map.entry("one", 1),
            Map.entry("two", 2), Map.entry("three", 3), Map.entry("four", 4), Map.entry("five", 5), Map.entry("six", 6),
            Map.entry("seven", 7), Map.entry("eight", 8), Map.entry("nine", 9), Map.entry("ten", 10),
            Map.entry("eleven", 11), Map.entry("twelve", 12), Map.entry("thirteen", 13), Map.entry("fourteen", 14),
            Map.entry("fifteen", 15), Map.entry("sixteen", 16), Map.entry("seventeen", 17), Map.entry("eighteen", 18),
            Map.entry("nineteen", 19), Map.entry("single", 1), Map.entry("dozen", 12));
    private static final Map<String, Integer> TENS = Map.of("twenty", 20, "thirty", 30, "forty", 40, "fifty", 50,
            "sixty", 60, "seventy", 70, "eighty", 80, "ninety", 90);

    private Lexer() {
    }

    static List<Token> tokens(String text) {
        List<Token> raw = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            int s = m.start();
            int e = m.end();
            Token t;
            if (m.group("quoted") != null) {
                t = new Token(Token.Type.QUOTED, m.group(2), s, e);
            } else if (m.group("kilo") != null) {
                throw new Problem("'" + m.group() + "' is ambiguous (1,000 or 1,024 times?): write the number in full, "
                        + "e.g. '16,384 GPUs'", List.of(new Span(s, e)));
            } else if (m.group("ratio") != null) {
                t = new Token(Token.Type.RATIO, m.group().toLowerCase(Locale.ROOT), s, e);
                t.num = number(m.group("rl"));
                t.num2 = number(m.group("rr"));
            } else if (m.group("speed") != null) {
                t = new Token(Token.Type.SPEED, m.group().toLowerCase(Locale.ROOT), s, e);
                double v = number(m.group("sv"));
                t.num = m.group("su").toLowerCase(Locale.ROOT).startsWith("t") ? v * 1000 : v;
            } else if (m.group("length") != null) {
                t = new Token(Token.Type.LENGTH, m.group().toLowerCase(Locale.ROOT), s, e);
                double v = number(m.group("lv"));
                String unit = m.group("lu").toLowerCase(Locale.ROOT);
                // 1 ft = 0.3048 m exactly (international foot), kept to the millimetre.
                t.num = unit.startsWith("f") ? Math.round(v * 304.8) / 1000.0 : v;
            } else if (m.group("count") != null || m.group("number") != null) {
                String g = m.group("count") != null ? m.group("count") : m.group("number");
                t = new Token(Token.Type.NUMBER, g.replace(",", ""), s, e);
                t.num = number(g);
            } else if (m.group("word") != null) {
                t = new Token(Token.Type.WORD, m.group().toLowerCase(Locale.ROOT), s, e);
            } else if (m.group("sep") != null) {
                t = new Token(Token.Type.SEP, m.group(), s, e);
            } else {
                t = new Token(Token.Type.PUNCT, m.group().toLowerCase(Locale.ROOT), s, e);
            }
            raw.add(t);
        }
        List<Token> joined = numberWords(text, raw);
        List<Token> out = new ArrayList<>();
        for (int i = 0; i < joined.size(); i++) {
            Token t = joined.get(i);
            if (t.type == Token.Type.PUNCT && t.text.equals("-")) {
                if (i + 1 < joined.size() && joined.get(i + 1).span.start() == t.span.end() && i > 0
                        && joined.get(i - 1).span.end() == t.span.start()) {
                    joined.get(i + 1).hyphenBefore = true;
                }
                continue; // a hyphen only joins
            }
            out.add(t);
        }
        return classify(text, out);
    }

    private static String num(String name) {
        return "(?<" + name + ">\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?)";
    }

    static double number(String s) {
        return Double.parseDouble(s.replace(",", ""));
    }

    /** "thirty-two", "one hundred and twenty-eight", "two thousand forty-eight" become one NUMBER each. */
    private static List<Token> numberWords(String text, List<Token> in) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < in.size()) {
            Token t = in.get(i);
            if (t.type != Token.Type.WORD || !isNumberWord(t.text) || t.text.equals("dozen")) {
                out.add(t);
                i++;
                continue;
            }
            long total = 0;
            long current = 0;
            int j = i;
            int last = i;
            while (j < in.size()) {
                Token u = in.get(j);
                if (u.type == Token.Type.WORD && isNumberWord(u.text)) {
                    String w = u.text;
                    if (ONES.containsKey(w)) {
                        if (w.equals("dozen")) {
                            current = (current == 0 ? 1 : current) * 12;
                        } else {
                            if (current % 10 != 0 && current < 100 && current > 0) {
                                break; // "two three": two numbers
                            }
                            current += ONES.get(w);
                        }
                    } else if (TENS.containsKey(w)) {
                        if (current % 100 != 0) {
                            break;
                        }
                        current += TENS.get(w);
                    } else if (w.equals("hundred")) {
                        current = (current == 0 ? 1 : current) * 100;
                    } else {
                        total += (current == 0 ? 1 : current) * 1000;
                        current = 0;
                    }
                    last = j;
                    j++;
                } else if (u.type == Token.Type.PUNCT && u.text.equals("-") && j + 1 < in.size()
                        && in.get(j + 1).type == Token.Type.WORD && isNumberWord(in.get(j + 1).text)) {
                    j++;
                } else if (u.type == Token.Type.WORD && u.text.equals("and") && j + 1 < in.size()
                        && in.get(j + 1).type == Token.Type.WORD && isNumberWord(in.get(j + 1).text)
                        && (current >= 100 || total > 0)) {
                    j++;
                } else {
                    break;
                }
            }
            Token n = new Token(Token.Type.NUMBER, Long.toString(total + current), t.span.start(), in.get(last).span.end());
            n.num = total + current;
            n.hyphenBefore = t.hyphenBefore;
            out.add(n);
            i = last + 1;
        }
        return out;
    }

    private static boolean isNumberWord(String w) {
        return ONES.containsKey(w) || TENS.containsKey(w) || w.equals("hundred") || w.equals("thousand");
    }

    /** Phrases, words, switch products and GPUs. */
    private static List<Token> classify(String text, List<Token> in) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        outer:
        while (i < in.size()) {
            Token t = in.get(i);
            if (t.type == Token.Type.WORD || t.type == Token.Type.NUMBER) {
                // A switch product: the shortest run of tokens from here that names one, this token needed.
                for (int n = 1; n <= 3 && i + n <= in.size(); n++) {
                    if (t.type == Token.Type.NUMBER) {
                        break;
                    }
                    String joined = join(in, i, n);
                    SwitchLatency.SwitchModel sm = SwitchLatency.modelOf(joined);
                    if (sm != null && (n == 1 || SwitchLatency.modelOf(join(in, i + 1, n - 1)) == null)
                            && contiguous(in, i, n)) {
                        Token p = merged(in, i, n, joined, Lexicon.C.SWITCH_MODEL);
                        p.value = sm;
                        out.add(p);
                        i += n;
                        continue outer;
                    }
                }
                for (String[] ph : Lexicon.phrases()) {
                    if (matches(in, i, ph)) {
                        String joined = String.join(" ", ph);
                        Token p = merged(in, i, ph.length, joined, Lexicon.phrase(joined));
                        out.add(p);
                        i += ph.length;
                        continue outer;
                    }
                }
            }
            if (t.type == Token.Type.WORD || t.type == Token.Type.PUNCT) {
                t.concept = Lexicon.word(t.text);
                if (t.concept == null && t.type == Token.Type.WORD) {
                    String w = t.text.endsWith("'s") ? t.text.substring(0, t.text.length() - 2) : t.text;
                    ScaleUp gpu = ScaleUp.of(w.endsWith("s") ? w.substring(0, w.length() - 1) : w);
                    if (gpu == null) {
                        gpu = ScaleUp.of(w);
                    }
                    if (gpu != null && w.matches("[a-z]\\d{3}s?")) {
                        t.concept = Lexicon.C.GPU_MODEL;
                        t.value = gpu;
                    } else if (UNKNOWN_GPU.matcher(w).matches()) {
                        throw new Problem("'" + t.span.in(text) + "' is not a GPU FabricLab has figures for; allowed: "
                                + ScaleUp.knownNames(), List.of(t.span));
                    }
                }
            }
            out.add(t);
            i++;
        }
        return out;
    }

    private static boolean contiguous(List<Token> in, int i, int n) {
        for (int k = i + 1; k < i + n; k++) {
            Token a = in.get(k - 1);
            Token b = in.get(k);
            if (b.span.start() - a.span.end() > 1) {
                return false;
            }
        }
        return true;
    }

    private static String join(List<Token> in, int i, int n) {
        StringBuilder sb = new StringBuilder();
        for (int k = i; k < i + n && k < in.size(); k++) {
            Token t = in.get(k);
            if (t.type != Token.Type.WORD && t.type != Token.Type.NUMBER) {
                return "";
            }
            sb.append(sb.length() > 0 ? " " : "").append(t.text);
        }
        return sb.toString();
    }

    private static boolean matches(List<Token> in, int i, String[] ph) {
        if (i + ph.length > in.size()) {
            return false;
        }
        for (int k = 0; k < ph.length; k++) {
            Token t = in.get(i + k);
            if ((t.type != Token.Type.WORD && t.type != Token.Type.PUNCT) || !t.text.equals(ph[k])) {
                return false;
            }
        }
        return true;
    }

    private static Token merged(List<Token> in, int i, int n, String joined, Lexicon.C c) {
        Token p = new Token(Token.Type.WORD, joined, in.get(i).span.start(), in.get(i + n - 1).span.end());
        p.hyphenBefore = in.get(i).hyphenBefore;
        p.concept = c;
        return p;
    }
}
