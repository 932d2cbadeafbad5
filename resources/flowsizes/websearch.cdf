# Web search flow sizes: the DCTCP paper's measured distribution (Alizadeh et al., "Data Center
# TCP (DCTCP)", SIGCOMM 2010, Fig. 4), as the HPCC paper (Li et al., SIGCOMM 2019) uses it and its
# simulator ships it: github.com/alibaba-edu/High-Precision-Congestion-Control,
# traffic_gen/WebSearch_distribution.txt.
# Columns: flow size in bytes, cumulative percent. Sizes between points are interpolated linearly
# (as HPCC's traffic_gen does). Mean 1,711,250 B.
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
