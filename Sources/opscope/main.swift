print("opscope")
