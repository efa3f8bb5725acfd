print("rxmarbles")
