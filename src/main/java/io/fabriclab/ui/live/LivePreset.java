package io.fabriclab.ui.live;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Live presets: shipped scenarios (resources/scenarios) that each show one phenomenon on the
 * shipped example fabric (classic-leaf-spine.json, the one the editor opens first), with the speed
 * at which it is watchable: the storm of an incast builds in about 60 µs of simulated time, so
 * 10 µs/s (position 7) shows it over six seconds; DCQCN takes about 700 µs to stop the pauses of
 * the same incast, so its preset runs at 50 µs/s (7.7); the ECMP collision, the deadlock and the
 * head-of-line victim (whose incast starts at 200 µs) unfold over 300-450 µs, so 50 µs/s (7.7)
 * shows them in six to nine seconds. The scenario names the devices
 * and ports of that fabric; on another fabric it is refused with the name it misses.
 */
public enum LivePreset {
    PFC_SPREADING("incast: PFC pauses spread upstream", "incast-pfc-only.json", "classic-leaf-spine.json", 7,
            "8:1 incast, PFC only: leaf1 pauses spine1 and spine2, then the sender leaves"),
    ECN_DCQCN("incast: ECN + DCQCN tame it", "ecn-tuned.json", "classic-leaf-spine.json", 7.7,
            "the same incast, ECN marking from 100 KB (below the 300 KB XOFF) and DCQCN: sparks and CNPs from 20 µs;"
                    + " pauses thin out and stop after about 720 µs (103 PAUSE frames against 271), but the cut senders"
                    + " leave the receiver's link part idle: 2.3 ms against 1.3 ms. With the production thresholds"
                    + " (Kmin 400 KB, above what leaf1 holds at XOFF) PFC acts first and it looks like the storm"),
    HOL_VICTIM("head-of-line victim", "hol-victim.json", "classic-leaf-spine.json", 7.7,
            "a flow to server02 shares spine-to-leaf1 links with an incast to server01 (from 200 µs) and is paused with it"),
    FAILED_LINK("failed link during an all-reduce", "link-failure-mid-collective.json", "classic-leaf-spine.json", 8.5,
            "leaf1-spine1 fails at 1 ms; frames on it are lost, routing reconverges 50 µs later"),
    ECMP_COLLISION("ECMP collision", "ecmp-collision.json", "classic-leaf-spine.json", 7.7,
            "ECMP puts six of leaf2's eight flows on the spine2 uplink: it queues and pauses while spine1 has room"),
    DEADLOCK("PFC deadlock after a failure", "deadlock-two-failures.json", "classic-leaf-spine.json", 7.7,
            "leaf4-spine1 is down, leaf3-spine2 fails at 20 µs; bounced traffic closes a cycle of pauses (thick dashes, ~320 µs)");

    private final String label;
    private final String scenario;
    private final String fabric;
    private final double speedPosition;
    private final String shows;

    LivePreset(String label, String scenario, String fabric, double speedPosition, String shows) {
        this.label = label;
        this.scenario = scenario;
        this.fabric = fabric;
        this.speedPosition = speedPosition;
        this.shows = shows;
    }

    public String label() {
        return label;
    }

    /** The shipped example fabric (resources/examples) the scenario is written for. */
    public String fabric() {
        return fabric;
    }

    /** The speed slider position it is watchable at (log10 of simulated ps per wall second). */
    public double speedPosition() {
        return speedPosition;
    }

    /** What to watch for. */
    public String shows() {
        return shows;
    }

    /** The shipped scenario file name (resources/scenarios). */
    public String scenario() {
        return scenario;
    }

    /**
     * The scenario as a file: the one under resources/scenarios when run from the source tree, else
     * a copy of the classpath resource in a temporary directory.
     */
    public Path scenarioFile() throws IOException {
        Path tree = Path.of("resources", "scenarios", scenario);
        if (Files.isRegularFile(tree)) {
            return tree;
        }
        try (InputStream in = LivePreset.class.getResourceAsStream("/fabriclab/scenarios/" + scenario)) {
            if (in == null) {
                throw new IOException("the shipped scenario " + scenario + " is missing from this build");
            }
            Path dir = Files.createTempDirectory("fabriclab-preset");
            Path out = dir.resolve(scenario);
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
            // Deleted at exit in the reverse order of these calls: the file, then its (then empty) directory.
            dir.toFile().deleteOnExit();
            out.toFile().deleteOnExit();
            return out;
        }
    }

    @Override
    public String toString() {
        return "preset: " + label;
    }
}
