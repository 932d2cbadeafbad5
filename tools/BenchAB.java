import java.io.*;
import java.net.*;
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;

/**
 * Two builds' `bench sim` alternated run by run in one JVM, each build through its own class
 * loader (its own classes and JIT profile), so both see the same minutes of a shared machine:
 *   java -XX:+UseSerialGC -Xmx3g tools/BenchAB.java BEFORE_DIR AFTER_DIR ROUNDS SCENARIO...
 * BEFORE_DIR and AFTER_DIR hold target/fabriclab.jar and target/classpath.txt (mvn -DskipTests
 * package). Each round runs every scenario once per build (`bench sim --scenario S --runs 1`),
 * the build that goes first alternating from round to round, and prints a line per run with its
 * events, CPU seconds of the simulator's thread, CPU M events/s, wall seconds and the load
 * average. docs/performance.md, Simulator per transport, uses it.
 */
public class BenchAB {
    static URLClassLoader loader(String dir) throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(Path.of(dir, "target/fabriclab.jar").toUri().toURL());
        for (String p : Files.readString(Path.of(dir, "target/classpath.txt")).trim().split(":")) {
            urls.add(Path.of(p).toUri().toURL());
        }
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    public static void main(String[] a) throws Exception {
        String[] dirs = {a[0], a[1]};
        int rounds = Integer.parseInt(a[2]);
        String[] scen = Arrays.copyOfRange(a, 3, a.length);
        java.lang.reflect.Method[] run = new java.lang.reflect.Method[2];
        for (int b = 0; b < 2; b++) {
            run[b] = loader(dirs[b]).loadClass("io.fabriclab.cli.Main").getMethod("run", String[].class);
        }
        Pattern p = Pattern.compile("run 1 \\(cold\\): ([0-9,]+) events, CPU ([0-9.]+) s \\(([0-9.]+) M events/s\\), wall ([0-9.]+) s");
        PrintStream real = System.out;
        for (int r = 1; r <= rounds; r++) {
            for (String s : scen) {
                for (int k = 0; k < 2; k++) {
                    int b = (r % 2 == 1) ? k : 1 - k; // ABBA: alternate which build goes first
                    ByteArrayOutputStream buf = new ByteArrayOutputStream();
                    System.setOut(new PrintStream(buf, true));
                    int code;
                    try {
                        code = (int) run[b].invoke(null, (Object) new String[] {"bench", "sim", "--scenario", s, "--runs", "1"});
                    } finally {
                        System.setOut(real);
                    }
                    Matcher m = p.matcher(buf.toString());
                    if (code != 0 || !m.find()) {
                        real.println("FAILED " + code + " " + buf);
                        continue;
                    }
                    real.printf(Locale.ROOT, "round %d %s %s events %s cpu %s cpuMeps %s wall %s load %.2f%n", r,
                            b == 0 ? "before" : "after", Path.of(s).getFileName(), m.group(1), m.group(2), m.group(3),
                            m.group(4), java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
                }
            }
        }
    }
}
