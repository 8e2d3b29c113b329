// The Screen module: pure cell grid, layout, views, key map. Replaced by real code.
public enum ScreenModule {}
