package io.fabriclab.edit;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Changes one property through its getter and setter (device model, unit, rail, link speed, cable
 * length, link state...). The old value is read when the command first executes; a setter that
 * rejects the value throws and nothing changes.
 */
public final class SetPropertyCommand<T> implements FabricCommand {
    private final String description;
    private final Supplier<T> getter;
    private final Consumer<T> setter;
    private final T newValue;
    private T oldValue;
    private boolean captured;

    public SetPropertyCommand(String description, Supplier<T> getter, Consumer<T> setter, T newValue) {
        this.description = description;
        this.getter = getter;
        this.setter = setter;
        this.newValue = newValue;
    }

    /** True when the new value equals the current one (the editor then skips the command). */
    public boolean isNoOp() {
        return Objects.equals(getter.get(), newValue);
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void execute() {
        if (!captured) {
            oldValue = getter.get();
            captured = true;
        }
        setter.accept(newValue);
    }

    @Override
    public void undo() {
        setter.accept(oldValue);
    }
}
