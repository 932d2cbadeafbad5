package io.fabriclab.diagram;

import java.util.Comparator;

/** Orders names the way people number cables and racks: "leaf2" before "leaf10". */
public final class NaturalOrder implements Comparator<String> {
    public static final NaturalOrder INSTANCE = new NaturalOrder();

    private NaturalOrder() {
    }

    @Override
    public int compare(String x, String y) {
        int i = 0;
        int j = 0;
        while (i < x.length() && j < y.length()) {
            char a = x.charAt(i);
            char b = y.charAt(j);
            if (Character.isDigit(a) && Character.isDigit(b)) {
                int si = i;
                int sj = j;
                while (i < x.length() && Character.isDigit(x.charAt(i))) {
                    i++;
                }
                while (j < y.length() && Character.isDigit(y.charAt(j))) {
                    j++;
                }
                String na = x.substring(si, i).replaceFirst("^0+(?=.)", "");
                String nb = y.substring(sj, j).replaceFirst("^0+(?=.)", "");
                if (na.length() != nb.length()) {
                    return Integer.compare(na.length(), nb.length());
                }
                int c = na.compareTo(nb);
                if (c != 0) {
                    return c;
                }
            } else {
                if (a != b) {
                    return Character.compare(a, b);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(x.length() - i, y.length() - j);
    }
}
