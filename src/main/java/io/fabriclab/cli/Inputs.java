package io.fabriclab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.fabriclab.io.FabricFiles;
import io.fabriclab.io.InputException;
import io.fabriclab.io.PriceBookFile;
import io.fabriclab.model.Device;
import io.fabriclab.model.Fabric;
import io.fabriclab.model.Link;
import io.fabriclab.topology.PriceBook;

/** Reading what the user names on the command line; every failure is bad input (exit 2). */
final class Inputs {
    private Inputs() {
    }

    static Fabric fabric(Path file) throws InputException {
        return FabricFiles.load(file);
    }

    static PriceBook priceBook(Path file) throws IOException {
        return file == null ? PriceBookFile.sample() : PriceBookFile.load(file);
    }

    /** The failed elements named by --fail: link ids, "dev:port", "devA-devB" or device ids. */
    static final class Failure {
        final Set<Device> devices = new HashSet<>();
        final Set<Link> links = new HashSet<>();
        final String spec;

        Failure(Fabric fabric, List<String> specs) {
            this.spec = String.join(", ", specs);
            for (String s : specs) {
                Device d = fabric.device(s);
                if (d != null) {
                    devices.add(d);
                    continue;
                }
                Link l = fabric.findLink(s);
                if (l == null) {
                    throw new BadInputException("--fail " + s + ": no device or link of that name in " + fabric.name()
                            + "; allowed: a device id, a link id (devA:portA--devB:portB), a port (dev:port) or devA-devB");
                }
                links.add(l);
            }
        }

        boolean isEmpty() {
            return devices.isEmpty() && links.isEmpty();
        }
    }
}
