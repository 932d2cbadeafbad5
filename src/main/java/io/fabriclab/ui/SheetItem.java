package io.fabriclab.ui;

import org.controlsfx.control.PropertySheet;

/**
 * What every row of a ControlsFX property sheet in FabricLab holds the same way: its category
 * (section), name, description (the tooltip) and value type. Subclasses say how the value is read
 * and written: the inspector's {@link FabricProperty} through undoable commands, the QoS editor's
 * fields into the profile being edited.
 */
abstract class SheetItem implements PropertySheet.Item {
    private final String category;
    private final String name;
    private final String description;
    private final Class<?> type;

    SheetItem(String category, String name, String description, Class<?> type) {
        this.category = category;
        this.name = name;
        this.description = description;
        this.type = type;
    }

    @Override
    public Class<?> getType() {
        return type;
    }

    @Override
    public String getCategory() {
        return category;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getDescription() {
        return description;
    }
}
