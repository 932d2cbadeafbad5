package io.fabriclab.edit;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;

/**
 * Cables every device whose id matches one name pattern to every device matching another
 * ({@code leaf*} to {@code spine*}, containerlab's bulk linking), a given number of links per
 * pair, each on the first free ports of equal speed (see {@link AddLinkCommand}). Patterns are
 * globs: {@code *} any run of characters, {@code ?} one character. All links are one undo step;
 * if any pair runs out of ports, nothing is added.
 */
public final class BulkLinkCommand implements FabricCommand {
    private final CompoundCommand links;
    private final List<Link> added;

    private BulkLinkCommand(CompoundCommand links, List<Link> added) {
        this.links = links;
        this.added = added;
    }

    /**
     * Plans the links now (choosing ports as if the earlier ones were already cabled); throws
     * IllegalArgumentException naming the first device that runs out of free ports.
     */
    public static BulkLinkCommand byPattern(Fabric fabric, String fromGlob, String toGlob, int linksPerPair) {
        if (linksPerPair < 1) {
            throw new IllegalArgumentException("links per pair must be >= 1: " + linksPerPair);
        }
        List<Device> from = matching(fabric, fromGlob);
        List<Device> to = matching(fabric, toGlob);
        List<AddLinkCommand> planned = new ArrayList<>();
        try {
            for (Device a : from) {
                for (Device b : to) {
                    if (a == b) {
                        continue;
                    }
                    for (int i = 0; i < linksPerPair; i++) {
                        AddLinkCommand c = new AddLinkCommand(fabric, a, b);
                        c.execute(); // so the next choice sees these ports taken
                        planned.add(c);
                    }
                }
            }
        } finally {
            for (int i = planned.size() - 1; i >= 0; i--) {
                planned.get(i).undo();
            }
        }
        List<Link> added = planned.stream().map(AddLinkCommand::link).toList();
        return new BulkLinkCommand(new CompoundCommand("Link " + fromGlob + " to " + toGlob + " (" + planned.size()
                + " links)", planned), added);
    }

    /** Devices whose id matches the glob, in fabric order. */
    public static List<Device> matching(Fabric fabric, String glob) {
        Pattern p = globToRegex(glob);
        return fabric.devices().stream().filter(d -> p.matcher(d.id()).matches()).toList();
    }

    static Pattern globToRegex(String glob) {
        StringBuilder re = new StringBuilder();
        for (char c : glob.trim().toCharArray()) {
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString());
    }

    /** The links this command adds. */
    public List<Link> links() {
        return added;
    }

    @Override
    public String description() {
        return links.description();
    }

    @Override
    public void execute() {
        links.execute();
    }

    @Override
    public void undo() {
        links.undo();
    }
}
