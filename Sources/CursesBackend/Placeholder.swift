// The only importer of CNCurses. Replaced by real code.
public enum CursesBackendModule {}
