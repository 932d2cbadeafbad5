package io.fabriclab.edit;

import java.util.ArrayList;
import java.util.List;

/** Several commands as one undo step; all or nothing: if one fails, the ones before it are undone. */
public final class CompoundCommand implements FabricCommand {
    private final String description;
    private final List<FabricCommand> parts;

    public CompoundCommand(String description, List<? extends FabricCommand> parts) {
        this.description = description;
        this.parts = List.copyOf(parts);
    }

    public List<FabricCommand> parts() {
        return parts;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void execute() {
        List<FabricCommand> done = new ArrayList<>();
        try {
            for (FabricCommand c : parts) {
                c.execute();
                done.add(c);
            }
        } catch (RuntimeException e) {
            for (int i = done.size() - 1; i >= 0; i--) {
                done.get(i).undo();
            }
            throw e;
        }
    }

    @Override
    public void undo() {
        for (int i = parts.size() - 1; i >= 0; i--) {
            parts.get(i).undo();
        }
    }
}
