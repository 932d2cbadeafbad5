package io.fabriclab.io;

import java.io.IOException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabriclab.model.Fabric;

/**
 * Reads the fabric a scenario refers to. The fabric file format has its own reader; the scenario
 * reader takes it through this interface so the two evolve separately (wired in the CLI).
 */
public interface FabricReader {
    /** A fabric file (path already resolved against the scenario's directory). */
    Fabric read(Path file) throws IOException;

    /** A fabric written inline in the scenario; {@code where} names it for error messages. */
    Fabric read(JsonNode inline, String where) throws IOException;

    /** FabricLab's own formats: a path through {@link FabricFiles#load}, an inline object as fabric JSON. */
    FabricReader FILES = new FabricReader() {
        @Override
        public Fabric read(Path file) {
            try {
                return FabricFiles.load(file);
            } catch (InputException e) {
                throw new ScenarioException(e.getMessage(), e);
            }
        }

        @Override
        public Fabric read(JsonNode inline, String where) {
            try {
                return FabricJson.read(inline.toString(), where);
            } catch (InputException e) {
                throw new ScenarioException(e.getMessage(), e);
            }
        }
    };

    /** A reader that refuses: for builds where no fabric format is wired. */
    FabricReader NONE = new FabricReader() {
        @Override
        public Fabric read(Path file) {
            throw new ScenarioException("no fabric reader is wired into this build; cannot read " + file);
        }

        @Override
        public Fabric read(JsonNode inline, String where) {
            throw new ScenarioException("no fabric reader is wired into this build; cannot read the inline fabric at " + where);
        }
    };
}
