print("certpath")
