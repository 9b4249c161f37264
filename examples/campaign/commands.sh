cp -r examples/campaign ~/first-campaign
cd ~/first-campaign
cc -O2 -shared -fPIC -o libmydiv.so my_div.c
~/symerr/bin/symerr run campaign.json --output report || echo "symerr exit status: $?"
